/** docs/product.md#limits-and-constants: business constants and limits, shared by every app. */
export const PRODUCT_NAME = 'Fanpilot';

/** The announcement composer's counter ('N/500 characters'); not enforced (docs/product.md#announcements). */
/** Who sent a message the AI wrote (the `from` of its messages, the `sender` of its rows). */
export const AI_SENDER = 'Creatorai';
export const ANNOUNCEMENT_MAX_LENGTH = 500;
export const PROFILE_IMAGE_MAX_BYTES_DASHBOARD = 5 * 1024 * 1024;
export const PROFILE_IMAGE_MAX_BYTES_SIGNUP = 10 * 1024 * 1024;
export const KNOWLEDGE_FILE_MAX_BYTES = 10 * 1024 * 1024;
export const KNOWLEDGE_FILE_EXTENSIONS = ['.pdf', '.txt', '.doc', '.docx'] as const;
export const UPLOAD_DEFAULT_MAX_FILES = 1;
export const FAN_ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;
/** Image or PDF, checked by content. */
export const FAN_ATTACHMENT_MIME_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'application/pdf',
] as const;
export const FAN_MESSAGE_MAX_LENGTH = 4000;
/** POST /api/ask: the longest Idempotency-Key header, and how long a key is remembered per fan. */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 100;
export const ASK_IDEMPOTENCY_WINDOW_HOURS = 24;
export const FAN_NAME_MAX_LENGTH = 100;
export const CREATOR_MESSAGE_MAX_LENGTH = 10_000;
export const TEMPLATE_TITLE_MAX_LENGTH = 100;
export const TEMPLATES_MAX_PER_CREATOR = 200;

export const POLL_MESSAGES_MS = 5_000;
export const POLL_STATUS_MS = 2_000;
export const POLL_KNOWLEDGE_PROGRESS_MS = 5_000;
export const POLL_USAGE_MS = 60_000;
export const POLL_MOBILE_CHAT_MS = 8_000;
export const MOBILE_CHAT_POST_SEND_REFRESH_MS = 2_000;
export const CURRENT_USER_CACHE_MS = 5 * 60_000;
export const NEW_MESSAGE_BANNER_MS = 3_000;
export const SIGN_IN_POPUP_CHECK_MS = 1_000;
export const REDIRECT_AFTER_SIGNUP_MS = 2_000;
export const RECENT_ACTIVITY_ITEMS = 5;
export const RECENT_ACTIVITY_TEXT_CUT = 30;
export const CONVERSATION_REPLY_PREVIEW_CUT = 100;
export const MOBILE_BREAKPOINT_PX = 768;
export const RESPONSE_RATE_PERCENT = 98;
export const TOAST_DURATION_MS = 5_000;
export const TOAST_SWIPE_THRESHOLD_PX = 50;

export const TEMPERATURE_MIN = 0;
export const TEMPERATURE_MAX = 1;
export const TEMPERATURE_STEP = 0.1;
export const DEFAULT_TEMPERATURE = 0.7;
export const DEFAULT_MODEL = 'gpt-4o-mini';
export const DEFAULT_CHATBOT_NAME = 'My AI Assistant';
export const DEFAULT_CHATBOT_INSTRUCTIONS =
  'You are a friendly, helpful assistant. Answer questions clearly and kindly, using the knowledge you have been given.';
/** The product description (docs/product.md#differences-from-the-original-specification) lists a placeholder model twice; the selectable models are these. */
export const MODEL_CHOICES = [
  'gpt-4o',
  'gpt-4o-mini',
  'gpt-4',
  'claude-3-haiku-20240307',
  'gpt-3.5-turbo',
  'gemini-pro',
  'deepseek-v3',
] as const;
export type ModelChoice = (typeof MODEL_CHOICES)[number];

export const FREE_CREDITS = 1_000;
export const CREDITS_PER_DOLLAR = 10_000;
export const CREDITS_PER_AI_ANSWER = 1;
/** AI answers a creator's chatbot gives per UTC day unless the creator sets another budget. */
export const DEFAULT_DAILY_AI_BUDGET = 300;
export const DAILY_AI_BUDGET_MIN = 1;
export const DAILY_AI_BUDGET_MAX = 100_000;

export const DEFAULT_STATUS_TEXT_OFFLINE = 'Offline - AI responding';
export const DEFAULT_STATUS_TEXT_ONLINE = 'Online - Creator responding';
/**
 * The status text fans read while the creator is Offline and the AI cannot answer (no chatbot, no
 * credits, today's budget reached): SPEC gives none for it; record 0073 / docs/product.md.
 */
export const STATUS_TEXT_OFFLINE_NO_AI = 'Offline - Creator will answer';

export const FAN_ID_STORAGE_KEY = 'fanchat_fan_id';
export const FAN_ID_PREFIX = 'mobile_fan_';
/** How long a link that moves a fan's chat to another browser works (it works once). */
export const FAN_TRANSFER_TTL_MINUTES = 10;
/** The link carries its token in the address's fragment (`#transfer=…`): it never reaches a server log. */
export const FAN_TRANSFER_FRAGMENT_KEY = 'transfer';

export const UPLOAD_WIDGET = {
  multipartThresholdBytes: 100 * 1024 * 1024,
  maxParts: 10_000,
  minPartBytes: 5 * 1024 * 1024,
  retryDelaysMs: [0, 1_000, 3_000, 5_000],
  concurrentRequests: 6,
  remoteRetries: 10,
  socketTimeoutMs: 5 * 60_000,
} as const;

export const SESSION_COOKIE = 'fp_session';
export const FAN_COOKIE = 'fp_fan';
/**
 * The website widget's fan cookie: httpOnly, `SameSite=None; Secure; Partitioned` (CHIPS), so the
 * browser keeps one per site that embeds the chat, even with third-party cookies blocked; read only
 * on calls that carry the widget frame's X-Widget-Site header (docs/decisions/0072-the-widget-keeps-no-secret-in-the-host-page.md).
 */
export const WIDGET_FAN_COOKIE = 'fp_wfan';
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** A correction's question and answer (docs/product.md#corrections). */
export const CORRECTION_QUESTION_MAX_LENGTH = 1_000;
export const CORRECTION_ANSWER_MAX_LENGTH = 20_000;
/** A fan's comment on an answer they rated (docs/product.md#fans-rate-answers). */
export const RATING_COMMENT_MAX_LENGTH = 500;
/** The "Try your chatbot" question (docs/product.md#try-your-chatbot). */
export const PLAYGROUND_QUESTION_MAX_LENGTH = 2_000;
/** Pages "Add a website" reads at most by default (INGEST_SITE_MAX_PAGES): the dialog says it. */
export const SITE_MAX_PAGES = 20;
