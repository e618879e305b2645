import { z } from 'zod';
import { CREATOR_MESSAGE_MAX_LENGTH, FAN_MESSAGE_MAX_LENGTH } from './constants.ts';

export const messageFromSchema = z.enum(['fan', 'creator', 'Creatorai']);
export type MessageFrom = z.infer<typeof messageFromSchema>;

export const fileAttachmentSchema = z.object({
  id: z.string(),
  fileType: z.enum(['pdf', 'image', 'other']),
  originalFilename: z.string(),
  fileSize: z.number().int(),
});
export type FileAttachment = z.infer<typeof fileAttachmentSchema>;

export const messageSchema = z.object({
  id: z.string(),
  from: messageFromSchema,
  message: z.string(),
  timestamp: z.string(),
  created_at: z.string(),
  status: z.enum(['pending', 'answered']).nullable(),
  fanId: z.string().nullable(),
  fanName: z.string().nullable(),
  replyTo: z.string().nullable(),
  sources: z.array(z.object({ title: z.string(), source: z.string() })).optional(),
  fileAttachment: fileAttachmentSchema.nullable().optional(),
});
export type Message = z.infer<typeof messageSchema>;

export const fanIdSchema = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9_.:-]+$/, 'fanId holds letters, digits, and _ . : -');

export const askRequestSchema = z.object({
  creator: z.string().trim().min(1).max(100),
  message: z.string().trim().min(1, 'Message must not be empty').max(FAN_MESSAGE_MAX_LENGTH),
  fanId: fanIdSchema,
  fanName: z.string().trim().max(100).optional(),
  attachment: z.object({ filename: z.string().min(1).max(255), contentBase64: z.string().min(1) }).optional(),
});
export type AskRequest = z.input<typeof askRequestSchema>;
export const answerRequestSchema = z.object({
  creator: z.string().trim().min(1).max(100),
  messageId: z.union([z.string(), z.number()]).transform(String),
  response: z.string().trim().min(1, 'A response must not be empty').max(CREATOR_MESSAGE_MAX_LENGTH),
});
export const sendMessageRequestSchema = z.object({
  fanId: z.string().trim().min(1, 'Cannot find fan ID. Please try again.').max(200),
  message: z.string().trim().min(1, 'A message must not be empty').max(CREATOR_MESSAGE_MAX_LENGTH),
  creatorUsername: z.string().trim().min(1).max(100),
});

export const fanSchema = z.object({
  fanId: z.string(),
  fanName: z.string().nullable(),
  messageCount: z.number().int(),
  pendingCount: z.number().int(),
  lastMessageTime: z.string().nullable(),
  firstSeenAt: z.string(),
});
export type Fan = z.infer<typeof fanSchema>;
