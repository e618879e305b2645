import { z } from 'zod';

/**
 * A string field whose absence (missing, or null) reads `message`, the same words a blank value
 * gets from its `.trim().min(1, message)`. Other refusals (a number, too long…) keep their own words.
 */
export const requiredString = (message: string) =>
  z.string({ error: (issue) => (issue.input === undefined || issue.input === null ? message : undefined) });
