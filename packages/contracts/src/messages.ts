import { z } from 'zod';
import {
  AI_SENDER,
  CREATOR_MESSAGE_MAX_LENGTH,
  FAN_ATTACHMENT_MAX_BYTES,
  FAN_MESSAGE_MAX_LENGTH,
  FAN_NAME_MAX_LENGTH,
  IDEMPOTENCY_KEY_MAX_LENGTH,
} from './constants.ts';
import { requiredString } from './required.ts';
import { noticeSchema } from './status.ts';

export const messageFromSchema = z.enum(['fan', 'creator', AI_SENDER]);
export type MessageFrom = z.infer<typeof messageFromSchema>;

export const fileAttachmentSchema = z.object({
  id: z.string(),
  fileType: z.enum(['pdf', 'image', 'other']),
  originalFilename: z.string(),
  /** Bytes. */
  fileSize: z.number().int(),
});
export type FileAttachment = z.infer<typeof fileAttachmentSchema>;

/**
 * Where an AI answer's knowledge came from: a citation the fan can open. `url` goes to the very
 * place: a web page with a text fragment (`#:~:text=`), a video at the moment (`&t=Ns`). A file's
 * citation (`pdf`, `file`) has no url: it opens the cited passage in the app's own viewer
 * (the fanCitation call), never the file itself. Older answers carry only title and source.
 */
export const messageSourceSchema = z.object({
  title: z.string(),
  source: z.string(),
  kind: z.enum(['web', 'pdf', 'video', 'file']).optional(),
  url: z.string().optional(),
  /** The PDF page the passage is on. */
  page: z.number().int().optional(),
  /** Seconds into the video where the passage starts. */
  seconds: z.number().int().optional(),
});
export type MessageSource = z.infer<typeof messageSourceSchema>;

/**
 * A citation as stored with the AI's answer: also the knowledge item and the passage the answer
 * quoted, read back by the fanCitation call only. Never sent in a message list.
 */
export interface StoredSource extends MessageSource {
  /** The knowledge item the passage came from. */
  itemId?: string;
  /** The cited passage (the chunk's text), as it was when the answer was written. */
  passage?: string;
}

/** Whether a citation opens the app's passage viewer (a file's), rather than a web address. */
export const isFileCitation = (source: Pick<MessageSource, 'kind'>) =>
  source.kind === 'pdf' || source.kind === 'file';

/**
 * A passage an AI answer cited from one of the creator's files, as the fan it was given to (or the
 * creator) reads it. `downloadUrl` is there only when the creator allows downloads of that file: a
 * signed link that works until `downloadExpiresAt`.
 */
export const citedPassageSchema = z.object({
  title: z.string(),
  /** The file's name. */
  source: z.string(),
  /** The page the passage is on (PDFs), or null. */
  page: z.number().int().nullable(),
  text: z.string(),
  downloadUrl: z.string().optional(),
  downloadExpiresAt: z.string().optional(),
});
export type CitedPassage = z.infer<typeof citedPassageSchema>;

/** The signature of a download link the fanCitation call issued. */
export const citedFileDownloadQuerySchema = z.object({
  expires: z.coerce.number().int().min(0).max(99_999_999_999),
  signature: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'signature is the link’s signature'),
});

export const messageStatusSchema = z.enum(['pending', 'answered']);

/** A message as the creator's dashboard reads it. */
export const messageSchema = z.object({
  id: z.string(),
  from: messageFromSchema,
  message: z.string(),
  timestamp: z.string(),
  created_at: z.string(),
  /** pending while a fan message awaits an answer; answered after; null for replies and direct messages. */
  status: messageStatusSchema.nullable(),
  fanId: z.string().nullable(),
  fanName: z.string().nullable(),
  /** The fan message this one answers. */
  replyTo: z.string().nullable(),
  sources: z.array(messageSourceSchema).optional(),
  fileAttachment: fileAttachmentSchema.nullable().optional(),
  /**
   * Set on a pending fan question the AI gave up on (the model kept failing for its whole retry
   * budget): the creator will answer it personally.
   */
  handedToCreator: z.literal(true).optional(),
  /** The fan's rating of this AI answer (docs/product.md#fans-rate-answers), when rated. */
  rating: z.object({ rating: z.enum(['up', 'down']), comment: z.string().nullable() }).optional(),
});
export type Message = z.infer<typeof messageSchema>;

/** A message as the fan's own chat page reads it (GET /api/chatlog/fan/{fanId}). */
export const fanChatMessageSchema = messageSchema
  .pick({
    id: true,
    message: true,
    from: true,
    created_at: true,
    timestamp: true,
    status: true,
    replyTo: true,
    sources: true,
    fileAttachment: true,
    handedToCreator: true,
    rating: true,
  })
  .extend({
    /**
     * On the fan's own question: the Idempotency-Key it was asked with (the fan app's local id for
     * it), so the app shows its local copy and the stored one as one message.
     */
    clientId: z.string().optional(),
  });
export type FanChatMessage = z.infer<typeof fanChatMessageSchema>;

/** What the fan chat page needs to know about the creator it talks to. */
export const publicCreatorSchema = z.object({
  username: z.string(),
  name: z.string(),
  profileImageUrl: z.string().nullable(),
  isOnline: z.boolean(),
  statusText: z.string(),
  notice: noticeSchema.nullable(),
  /** The chatbot's opening lines: the first bubbles of every fan conversation. */
  initialMessages: z.array(z.string()).optional(),
  /**
   * Whether the AI can answer now (credits left, today's budget not used up). False while the
   * creator is Offline means questions wait for the creator, and the fan app says so.
   */
  aiAvailable: z.boolean().optional(),
  /** What the creator wrote about themselves ('' for nothing). */
  description: z.string().optional(),
  /** The name of the creator's chatbot, the AI that answers while they are Offline (null: none). */
  chatbotName: z.string().nullable().optional(),
});
export type PublicCreator = z.infer<typeof publicCreatorSchema>;

/** docs/product.md#contractual-texts: a fan id that is missing or blank. */
export const FAN_ID_REQUIRED_MESSAGE = 'Cannot find fan ID. Please try again.';

export const fanIdSchema = requiredString(FAN_ID_REQUIRED_MESSAGE)
  .trim()
  .min(1, FAN_ID_REQUIRED_MESSAGE)
  .max(200)
  .regex(/^[A-Za-z0-9_.:-]+$/, 'fanId holds letters, digits, and _ . : -');

export const creatorUsernameFieldSchema = requiredString('creator is required')
  .trim()
  .min(1, 'creator is required')
  .max(100);

/** Largest base64 text that can hold FAN_ATTACHMENT_MAX_BYTES. */
export const FAN_ATTACHMENT_MAX_BASE64_LENGTH = Math.ceil(FAN_ATTACHMENT_MAX_BYTES / 3) * 4;

export const askAttachmentSchema = z.object({
  filename: requiredString('The attachment needs a file name')
    .trim()
    .min(1, 'The attachment needs a file name')
    .max(255),
  /** The file's bytes in base64; a `data:…;base64,` prefix (FileReader.readAsDataURL) is accepted. */
  contentBase64: z
    .string()
    .transform((v) => v.replace(/^data:[^,]{0,200};base64,/, '').replace(/\s+/g, ''))
    .pipe(
      z
        .string()
        .min(1, 'The attachment is empty')
        .max(FAN_ATTACHMENT_MAX_BASE64_LENGTH, 'The attachment is larger than 10 MB')
        .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'The attachment must be base64'),
    ),
});

/** POST /api/ask */
export const askRequestSchema = z.object({
  creator: creatorUsernameFieldSchema,
  message: requiredString('Message must not be empty')
    .trim()
    .min(1, 'Message must not be empty')
    .max(FAN_MESSAGE_MAX_LENGTH),
  fanId: fanIdSchema,
  fanName: z
    .string()
    .trim()
    .max(FAN_NAME_MAX_LENGTH)
    .optional()
    .transform((v) => (v ? v : undefined)),
  attachment: askAttachmentSchema.optional(),
});
export type AskRequest = z.input<typeof askRequestSchema>;

/** The Idempotency-Key header of POST /api/ask: one per question, the same on every resend. */
export const idempotencyKeySchema = z
  .string()
  .min(1, 'The Idempotency-Key header must not be empty')
  .max(
    IDEMPOTENCY_KEY_MAX_LENGTH,
    `The Idempotency-Key header holds at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`,
  )
  .regex(/^[A-Za-z0-9_.:-]+$/, 'The Idempotency-Key header holds letters, digits, and _ . : -');
/** POST /api/ask headers; every other header passes through untouched. */
export const askHeadersSchema = z.looseObject({ 'idempotency-key': idempotencyKeySchema.optional() });
export const askResponseSchema = z.object({
  success: z.literal(true),
  message: fanChatMessageSchema,
  /** True when the creator is Offline with credits: the AI will answer shortly. */
  aiWillAnswer: z.boolean(),
  /** Past the free allowance without a subscription: the AI does not answer; show the plan card. */
  paywall: z.boolean(),
  /** The message asked the assistant to forget: memory was cleared, or the item dropped. */
  memory: z.enum(['cleared', 'dropped']).optional(),
});
export type AskResponse = z.infer<typeof askResponseSchema>;

export const fanChatlogQuerySchema = z.object({ creator: z.string().trim().min(1).max(100).optional() });
export const fanIdParamsSchema = z.object({ fanId: fanIdSchema });

/** Params of the fanCitation call: the fan, the AI answer and the citation's position (from 0). */
export const fanCitationParamsSchema = z.object({
  fanId: fanIdSchema,
  messageId: z.string().regex(/^[1-9][0-9]{0,17}$/, 'messageId must be a message id'),
  n: z.coerce.number().int().min(0).max(99),
});

/** GET /api/chatlog/fan/{fanId} */
export const fanChatlogResponseSchema = z.object({
  /** Oldest first. */
  messages: z.array(fanChatMessageSchema),
  /** The creator this chat is with; null when the fan has no conversation yet and no ?creator= was given. */
  creator: publicCreatorSchema.nullable(),
  notice: noticeSchema.nullable(),
  isOnline: z.boolean(),
  statusText: z.string(),
});
export type FanChatlogResponse = z.infer<typeof fanChatlogResponseSchema>;

export const messageIdSchema = z
  .union([z.string(), z.number().int()])
  .transform(String)
  .pipe(z.string().regex(/^[1-9][0-9]{0,17}$/, 'messageId must be a message id'));

/** POST /api/answer */
export const answerRequestSchema = z.object({
  creator: creatorUsernameFieldSchema,
  messageId: messageIdSchema,
  response: requiredString('A response must not be empty')
    .trim()
    .min(1, 'A response must not be empty')
    .max(CREATOR_MESSAGE_MAX_LENGTH),
  /** The reply was written from the AI's draft of this question: the draft is used (one credit). */
  draftFor: messageIdSchema.optional(),
});
export type AnswerRequest = z.input<typeof answerRequestSchema>;
export const answerResponseSchema = z.object({
  success: z.literal(true),
  /** The creator's reply. */
  message: messageSchema,
  /** The fan message it answered, now answered. */
  answeredMessageId: z.string(),
});
export type AnswerResponse = z.infer<typeof answerResponseSchema>;

/** POST /api/send-message */
export const sendMessageRequestSchema = z.object({
  fanId: fanIdSchema,
  message: requiredString('A message must not be empty')
    .trim()
    .min(1, 'A message must not be empty')
    .max(CREATOR_MESSAGE_MAX_LENGTH),
  creatorUsername: creatorUsernameFieldSchema,
  /** The message was written from the AI's draft of this question: the draft is used (one credit). */
  draftFor: messageIdSchema.optional(),
});
export type SendMessageRequest = z.input<typeof sendMessageRequestSchema>;
export const sendMessageResponseSchema = z.object({
  success: z.literal(true),
  message: messageSchema,
  /** The fan's newest pending message this answered (docs/product.md#what-sending-does), or null for a new direct message. */
  answeredMessageId: z.string().nullable(),
});
export type SendMessageResponse = z.infer<typeof sendMessageResponseSchema>;

export const fanSchema = z.object({
  fanId: z.string(),
  fanName: z.string().nullable(),
  messageCount: z.number().int(),
  pendingCount: z.number().int(),
  lastMessageTime: z.string().nullable(),
  firstSeenAt: z.string(),
});
export type Fan = z.infer<typeof fanSchema>;

export const creatorQuerySchema = z.object({ creator: creatorUsernameFieldSchema });
export const messagesQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(2000).optional(),
});
export const creatorFanParamsSchema = z.object({
  username: z.string().min(1).max(100),
  fanId: fanIdSchema,
});

/** GET /api/chatlog?creator= */
export const chatlogResponseSchema = z.object({ messages: z.array(messageSchema) });
export type ChatlogResponse = z.infer<typeof chatlogResponseSchema>;

/** DELETE /api/chatlog/fan/{fanIdOrName}?creator= */
export const fanIdOrNameParamsSchema = z.object({ fanIdOrName: z.string().trim().min(1).max(200) });
export const deleteConversationResponseSchema = z.object({
  success: z.literal(true),
  deletedMessages: z.number().int(),
});

export const fileIdParamsSchema = z.object({ id: z.string().min(1).max(100) });
