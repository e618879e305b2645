import { z } from 'zod';

// The rules of a creator's username, once: the fan link is /pwa/{username} and it never changes
// after onboarding (docs/product.md#onboarding). The api checks them (the signup payload, the
// availability call) and the dashboard shows the same words as the creator types.

export const USERNAME_MIN_LENGTH = 2;
export const USERNAME_MAX_LENGTH = 30;

/** Names that would collide with routes or read as official. */
export const RESERVED_USERNAMES: ReadonlySet<string> = new Set([
  'admin',
  'api',
  'auth',
  'dashboard',
  'pwa',
  'objects',
  'support',
  'fanpilot',
  'www',
  'help',
]);

export type UsernameProblemReason = 'too_short' | 'too_long' | 'characters' | 'reserved';
export type UsernameUnavailableReason = UsernameProblemReason | 'taken';

/** What is wrong with a username, in words, as the creator reads it next to the field. */
export const USERNAME_MESSAGES: Record<UsernameUnavailableReason, string> = {
  too_short: `A username has at least ${USERNAME_MIN_LENGTH} characters.`,
  too_long: `A username has at most ${USERNAME_MAX_LENGTH} characters.`,
  characters:
    'A username holds only lowercase letters a–z, digits and single hyphens, and starts and ends with a letter or digit.',
  reserved: 'This username is reserved. Please choose another.',
  taken: 'This username is taken. Please choose another.',
};

/** Usernames are compared without case: what the creator types is kept in lowercase. */
export const normalizeUsername = (raw: string): string => raw.trim().toLowerCase();

/** The first rule a (normalized) username breaks, or null when it is a valid username. */
export function usernameProblem(username: string): UsernameProblemReason | null {
  if (username.length > USERNAME_MAX_LENGTH) return 'too_long';
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(username)) {
    return username.length < USERNAME_MIN_LENGTH && /^[a-z0-9]*$/.test(username) ? 'too_short' : 'characters';
  }
  if (username.length < USERNAME_MIN_LENGTH) return 'too_short';
  if (RESERVED_USERNAMES.has(username)) return 'reserved';
  return null;
}

/** A username a creator chooses: trimmed, lowercased, and refused in words when it breaks a rule. */
export const usernameChoiceSchema = z
  .string({ error: USERNAME_MESSAGES.characters })
  .max(200, USERNAME_MESSAGES.too_long)
  .transform(normalizeUsername)
  .superRefine((value, ctx) => {
    const problem = usernameProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: USERNAME_MESSAGES[problem] });
  });

/** GET /api/usernames/{username}/availability */
export const usernameAvailabilityParamsSchema = z.object({
  username: z.string().min(1, USERNAME_MESSAGES.too_short).max(200, USERNAME_MESSAGES.too_long),
});
export const usernameAvailabilitySchema = z.object({
  /** The name as it would be kept (trimmed, lowercase). */
  username: z.string(),
  available: z.boolean(),
  /** Why not, when not available. */
  reason: z.enum(['too_short', 'too_long', 'characters', 'reserved', 'taken']).optional(),
  /** The reason in words, for the field. */
  message: z.string().optional(),
  /** A free name close to the one asked for, when there is one. */
  suggestion: z.string().optional(),
});
export type UsernameAvailability = z.infer<typeof usernameAvailabilitySchema>;
