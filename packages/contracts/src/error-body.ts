import { z } from 'zod';
import { errorCodes } from './errors.ts';

/** Every 4xx/5xx body the api sends. */
export const errorBodySchema = z.object({ error: z.enum(errorCodes), message: z.string() });
export type ErrorBody = z.infer<typeof errorBodySchema>;
