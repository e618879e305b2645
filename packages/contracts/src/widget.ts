import { z } from 'zod';
import { siteOrigin, WIDGET_LAUNCHER_TEXT_MAX_LENGTH, WIDGET_POSITIONS, WIDGET_SITES_MAX } from './embed.ts';

// The website widget (docs/widget.md; docs/decisions/0050-the-website-widget.md) and the browser
// extension (docs/extension.md): what the creator sets, what the loader reads, and the two headers an
// embedded chat sends instead of the fan cookie that a cross-site frame does not get.

const SITE_MESSAGE = 'Enter each site as its address, like https://example.com.';

export const widgetSiteSchema = z
  .string({ error: SITE_MESSAGE })
  .max(300, SITE_MESSAGE)
  .transform((text, ctx) => {
    const origin = siteOrigin(text);
    if (!origin) {
      ctx.addIssue({ code: 'custom', message: `${SITE_MESSAGE} "${text.slice(0, 80)}" is not one.` });
      return z.NEVER;
    }
    return origin;
  });

export const widgetColorSchema = z
  .string({ error: 'Choose a colour.' })
  .regex(/^#[0-9a-fA-F]{6}$/, 'Choose a colour like #4f46e5.')
  .transform((c) => c.toLowerCase());

export const widgetLauncherTextSchema = z
  .string({ error: 'Write the launcher text.' })
  .transform((text) => text.replace(/\s+/g, ' ').trim())
  .pipe(
    z
      .string()
      .min(1, 'Write the launcher text.')
      .max(
        WIDGET_LAUNCHER_TEXT_MAX_LENGTH,
        `The launcher text can be at most ${WIDGET_LAUNCHER_TEXT_MAX_LENGTH} characters.`,
      ),
  );

/** PUT /api/creators/username/{username}/widget: the creator's widget. */
export const widgetSettingsSchema = z.object({
  sites: z
    .array(widgetSiteSchema, { error: 'List the sites as addresses.' })
    .max(WIDGET_SITES_MAX, `List at most ${WIDGET_SITES_MAX} sites.`)
    .transform((sites) => [...new Set(sites)]),
  color: widgetColorSchema,
  position: z.enum(WIDGET_POSITIONS, { error: 'Choose right or left.' }),
  launcherText: widgetLauncherTextSchema,
});
/** The saved settings, as the api answers them. */
export const widgetSettingsResponseSchema = z.object({
  sites: z.array(z.string()),
  color: z.string(),
  position: z.enum(WIDGET_POSITIONS),
  launcherText: z.string(),
  /** Sites whose pages asked for the widget and were refused (not listed), newest first, at most 5. */
  refusedSites: z.array(z.object({ site: z.string(), lastAt: z.string() })),
});
export type WidgetSettingsResponse = z.infer<typeof widgetSettingsResponseSchema>;
export type WidgetSettings = z.output<typeof widgetSettingsSchema>;
export type WidgetSettingsInput = z.input<typeof widgetSettingsSchema>;

/** GET /api/widget/{username}: what the loader on an allowed site needs to draw the launcher. */
export const widgetConfigSchema = z.object({
  name: z.string(),
  color: z.string(),
  position: z.enum(WIDGET_POSITIONS),
  launcherText: z.string(),
});
export type WidgetConfig = z.infer<typeof widgetConfigSchema>;

/**
 * POST /api/widget/{username}/chat: the widget's frame opens its chat (record 0072). It may bring
 * the token an old loader kept in the site's own storage, which is exchanged once for the frame's
 * partitioned cookie (and opens nothing afterwards).
 */
export const openWidgetChatRequestSchema = z.object({
  legacyToken: z
    .string({ error: 'The old token must be text.' })
    .regex(/^[A-Za-z0-9_-]{43}$/, 'The old token is not one the widget made.')
    .optional(),
});
export type OpenWidgetChatRequest = z.infer<typeof openWidgetChatRequestSchema>;

/** The chat this browser holds on the site: its fan id (null: none yet) and the name it gave. */
export const openWidgetChatResponseSchema = z.object({
  /** The creator's widget colour (#rrggbb): the frame's brand colour. */
  color: z.string(),
  fanId: z.string().nullable(),
  fanName: z.string().nullable(),
  /** Conversations moved from the old loader's token (0 without one). */
  moved: z.number().int(),
});
export type OpenWidgetChatResponse = z.infer<typeof openWidgetChatResponseSchema>;
