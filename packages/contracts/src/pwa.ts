import { z } from 'zod';

/** GET /pwa/{username}/manifest.webmanifest: the web app manifest of one creator's fan chat. */
export const webAppManifestIconSchema = z.object({
  src: z.string(),
  sizes: z.string(),
  type: z.string().optional(),
  purpose: z.enum(['any', 'maskable', 'monochrome', 'any maskable']).optional(),
});

export const webAppManifestSchema = z.object({
  id: z.string(),
  name: z.string(),
  short_name: z.string(),
  description: z.string(),
  lang: z.string(),
  start_url: z.string(),
  scope: z.string(),
  display: z.literal('standalone'),
  orientation: z.literal('portrait'),
  theme_color: z.string(),
  background_color: z.string(),
  icons: z.array(webAppManifestIconSchema).min(1),
});
export type WebAppManifest = z.infer<typeof webAppManifestSchema>;

/** The fan app's colours, shared by its manifest and its pages. */
export const FAN_APP_THEME_COLOR = '#4338ca';
export const FAN_APP_BACKGROUND_COLOR = '#ffffff';
