import { z } from 'zod';
import { chatbotNameSchema, chatbotSchema } from './chatbot.ts';
import { requiredString } from './required.ts';
import { usernameChoiceSchema } from './username.ts';

const PROFILE_IMAGE_REQUIRED_MESSAGE = 'A profile image is required';

export const creatorSchema = z.object({
  id: z.string(),
  name: z.string(),
  username: z.string(),
  profileImageUrl: z.string().nullable(),
  onboardingComplete: z.boolean(),
});
export type Creator = z.infer<typeof creatorSchema>;

/** GET /api/auth/user */
export const currentUserSchema = creatorSchema.extend({
  email: z.string(),
  /** What the creator wrote about themselves at signup, editable in Profile Settings ('' for none). */
  description: z.string().optional(),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

/** The creator's description: at most 1,000 characters, spaces around it dropped. */
export const CREATOR_DESCRIPTION_MAX = 1000;
export const creatorDescriptionSchema = z
  .string({ error: 'The description must be text.' })
  .trim()
  .max(CREATOR_DESCRIPTION_MAX, `The description can be at most ${CREATOR_DESCRIPTION_MAX} characters.`);

/** PUT /api/creators/username/{username}/description */
export const descriptionUpdateSchema = z.object({ description: creatorDescriptionSchema });
export type DescriptionUpdate = z.infer<typeof descriptionUpdateSchema>;

/** POST /api/creator-signup */
export const creatorSignupRequestSchema = z.object({
  chatbotName: chatbotNameSchema,
  description: z.string().trim().max(1000).optional().default(''),
  profileImageUrl: requiredString(PROFILE_IMAGE_REQUIRED_MESSAGE)
    .trim()
    .min(1, PROFILE_IMAGE_REQUIRED_MESSAGE)
    .max(2048),
  /**
   * The username the creator chose (their fan link /pwa/{username}); absent: the one assigned at
   * first sign-in stays. Fixed once onboarding is done.
   */
  username: usernameChoiceSchema.optional(),
});
export type CreatorSignupRequest = z.input<typeof creatorSignupRequestSchema>;

export const creatorSignupResponseSchema = z.object({
  creator: creatorSchema,
  chatbot: chatbotSchema.nullable().optional(),
});
export type CreatorSignupResponse = z.infer<typeof creatorSignupResponseSchema>;

/** POST /api/objects/upload */
export const objectUploadRequestSchema = z
  .object({
    contentType: z.string().max(100).optional(),
  })
  .optional();
export const objectUploadResponseSchema = z.object({ uploadURL: z.string().url() });
export type ObjectUploadResponse = z.infer<typeof objectUploadResponseSchema>;

/** PUT /api/creators/username/{username}/profile-image */
export const profileImageUpdateRequestSchema = z.object({
  profileImageURL: z.string().trim().min(1).max(2048),
});
export const profileImageUpdateResponseSchema = z.object({ creator: creatorSchema });

export const usernameParamsSchema = z.object({ username: z.string().min(1).max(100) });
