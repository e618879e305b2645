import type { ColumnType, Generated, Insertable, JSONColumnType, Selectable, Updateable } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

export interface CreatorsTable {
  id: Generated<string>;
  google_sub: string;
  email: string;
  name: string;
  username: string;
  profile_image_key: string | null;
  description: string;
  onboarding_complete: Generated<boolean>;
  is_online: Generated<boolean>;
  status_text: Generated<string>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface SessionsTable {
  /** SHA-256 of the token held in the signed cookie; the token itself is never stored. */
  id: string;
  creator_id: string;
  created_at: CreatedAt;
  expires_at: Date | string;
}

export interface ChatbotsTable {
  id: Generated<string>;
  creator_id: string;
  name: string;
  instructions: string;
  model: string;
  temperature: number;
  initial_messages: JSONColumnType<string[], string, string>;
  /** AI answers a day (UTC days) before questions wait for the creator; 1 to 100,000. */
  daily_ai_budget: Generated<number>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface KnowledgeItemsTable {
  id: Generated<string>;
  chatbot_id: string;
  type: 'youtube' | 'url' | 'file';
  url: string | null;
  youtube_url: string | null;
  file_name: string | null;
  file_key: string | null;
  file_size: number | null;
  /** A hash of what the chunks were made from (and the embedding model), for re-syncs. */
  content_hash: string | null;
  /**
   * Whether its long chunks' windows were embedded with its chunks (record 0090); the re-embed sweep
   * adds them to an active item stored before.
   */
  windowed: Generated<boolean>;
  title: string | null;
  status: Generated<'pending' | 'processing' | 'completed' | 'active' | 'failed'>;
  error: string | null;
  attempts: Generated<number>;
  created_at: CreatedAt;
  updated_at: Timestamp;
  processed_at: Date | string | null;
  /** The ingest run that owns the item now; an older run's results are discarded. */
  job_run: string | null;
  /** When the current run marked it processing (the sweeper's clock). */
  started_at: Date | string | null;
  chunk_count: Generated<number>;
  /** The creator lets fans who were cited this file download it whole (files only; off by default). */
  fans_may_download: Generated<boolean>;
  /** Raised at each switch-off of downloads; signed into download links (record 0071). */
  download_epoch: Generated<number>;
  /** Failed for good (a permanent reason): no Retry is offered. */
  failed_for_good: Generated<boolean>;
}

export interface ChunksTable {
  id: Generated<string>;
  knowledge_item_id: string;
  chatbot_id: string;
  ordinal: number;
  content: string;
  metadata: JSONColumnType<Record<string, unknown>, string, string>;
  /** Generated tsvector column; never written. */
  tsv: ColumnType<string, never, never>;
  created_at: CreatedAt;
}

/** A long chunk's two-sentence window (its vector, where pgvector exists, is not in the typed schema). */
export interface ChunkWindowsTable {
  id: Generated<string>;
  chunk_id: string;
  chatbot_id: string;
  /** The window's place among its chunk's windows (0 first). */
  ordinal: number;
}

export interface FansTable {
  id: Generated<string>;
  creator_id: string;
  fan_key: string;
  name: string | null;
  /** SHA-256 of the fan cookie token bound to this fan on first contact. */
  cookie_hash: string | null;
  created_at: CreatedAt;
  last_seen_at: Timestamp;
  /** Kept by a trigger on messages: the conversation's size, waiting questions and last activity. */
  message_count: ColumnType<number, never, never>;
  pending_count: ColumnType<number, never, never>;
  last_message_at: ColumnType<Date | null, never, never>;
  last_fan_message_at: ColumnType<Date | null, never, never>;
  /** The latest message either way, or the fan's first visit. */
  last_activity_at: ColumnType<Date, never, never>;
  /** The email this fan typed (lead capture) or proved: contact information only, it grants nothing. */
  email: Generated<string | null>;
  /**
   * The email this browser PROVED (lower case): it opened a one-time restore link mailed there, or
   * the payment provider's customer email on its own Checkout. A subscription under this email is
   * this fan's (core/src/entitlement.ts); a typed email never is.
   */
  proved_email: Generated<string | null>;
  /** When this fan first met the paywall, and when they subscribed (the measured conversion). */
  paywall_met_at: Generated<Date | null>;
  subscribed_at: Generated<Date | null>;
  /** The site (an origin) whose widget the conversation began on; null for the fan app. */
  widget_site: Generated<string | null>;
  /** The fan turned memory off (docs/decisions/0079): nothing is kept about them. */
  memory_off: Generated<boolean>;
  /** The last fan message memory was extracted from (each fan turn once). */
  memory_through: string | null;
}

/** A creator's website widget (docs/widget.md): the sites allowed to embed it and its look. */
export interface WidgetSettingsTable {
  creator_id: string;
  /** Origins, as JSON: `["https://example.com"]`. */
  sites: ColumnType<string[], string, string>;
  color: string;
  position: string;
  launcher_text: string;
  updated_at: Generated<Date>;
}

/** A site refused the creator's widget (not on their list): shown in Profile Settings. */
export interface WidgetRefusalsTable {
  creator_id: string;
  /** The refused page's origin. */
  site: string;
  last_at: Generated<Date>;
}

/** A one-time link that moves a fan's conversations to another browser; only its token's hash is kept. */
export interface FanTransfersTable {
  id: Generated<string>;
  /** SHA-256 of the link's token. */
  token_hash: string;
  creator_id: string;
  fan_key: string;
  /** The fan cookie hash of the browser that made the link: the conversations it moves. */
  cookie_hash: string;
  created_at: CreatedAt;
  expires_at: Date | string;
  used_at: Date | string | null;
}

export interface MessagesTable {
  id: Generated<string>;
  creator_id: string;
  fan_id: string | null;
  sender: 'fan' | 'creator' | 'Creatorai';
  body: string;
  status: 'pending' | 'answered' | null;
  reply_to: string | null;
  fan_name: string | null;
  sources: JSONColumnType<{ title: string; source: string }[], string, string> | null;
  created_at: CreatedAt;
  answered_at: Date | string | null;
  /** The Idempotency-Key of the POST /api/ask that stored this fan message; unique per fan while set. */
  client_key: string | null;
  /** When the AI gave up on this fan question (its retry budget ran out); the creator answers it. */
  ai_handed_over_at: Date | string | null;
  /** When the AI answered this fan question without grounding in the creator's knowledge (a gap). */
  knowledge_gap_at: Date | string | null;
  /** When the creator answered the gap from the gaps card or set it aside. */
  gap_closed_at: Date | string | null;
  /** The fan's rating of this AI answer (thumbs up or down), changeable; null: not rated. */
  fan_rating: 'up' | 'down' | null;
  fan_rating_comment: string | null;
  fan_rated_at: Date | string | null;
}

/** The creator's own answer to a question: it wins over other knowledge for it and its paraphrases. */
export interface AnswerCorrectionsTable {
  id: Generated<string>;
  creator_id: string;
  question: string;
  /** The question lowercased, without punctuation, spaces collapsed: one correction per creator each. */
  normalized: string;
  answer: string;
  /** The question's embedding (number[]), from `embedding_model`; null when none was configured. */
  embedding: JSONColumnType<number[], string, string> | null;
  embedding_model: string | null;
  /** The AI answer the creator corrected (null from the playground or the gaps card). */
  corrected_message_id: string | null;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** A correction sent to a fan who got the wrong answer: once per correction and fan (until it changes). */
export interface AnswerCorrectionSendsTable {
  correction_id: string;
  fan_id: string;
  /** The creator message that carried it (null once that message is gone). */
  message_id: string | null;
  sent_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface FileAttachmentsTable {
  id: Generated<string>;
  message_id: string;
  creator_id: string;
  storage_key: string;
  original_filename: string;
  file_type: 'pdf' | 'image' | 'other';
  mime_type: string;
  file_size: number;
  created_at: CreatedAt;
}

export interface NoticesTable {
  id: Generated<string>;
  creator_id: string;
  message: string;
  sent_count: number;
  created_at: CreatedAt;
  /** The creator chose to push this announcement to fans who allowed notifications. */
  push: Generated<boolean>;
  /** Devices the push reached. */
  pushed_count: Generated<number>;
}

export interface PushSubscriptionsTable {
  id: Generated<string>;
  creator_id: string;
  fan_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  preview: Generated<boolean>;
  created_at: CreatedAt;
  /** When the browser last subscribed with this endpoint (the cap per browser keeps the newest). */
  subscribed_at: Generated<Date>;
  last_pushed_at: Date | string | null;
}

/** A push of one message or announcement to one device: at most one each (issue #23). */
export interface PushDeliveriesTable {
  subscription_id: string;
  kind: string;
  ref_id: string;
  claimed_at: Generated<Date>;
}

export interface TemplatesTable {
  id: Generated<string>;
  creator_id: string;
  title: string;
  content: string;
  created_at: CreatedAt;
}

export interface CreditLedgerTable {
  id: Generated<string>;
  creator_id: string;
  delta: number;
  reason: 'free_grant' | 'ai_answer' | 'purchase' | 'adjustment' | 'ai_draft';
  message_id: string | null;
  /** The purchase a 'purchase' row credits (once). */
  purchase_id: string | null;
  created_at: CreatedAt;
}

/** A creator's credit totals, kept by a trigger on credit_ledger (never written by the app). */
export interface CreditTotalsTable {
  creator_id: ColumnType<string, never, never>;
  balance: ColumnType<string, never, never>;
  used: ColumnType<string, never, never>;
  free: ColumnType<string, never, never>;
  purchased: ColumnType<string, never, never>;
}

/** The change feed's versions (migration 2026-11-23T11-00_change_feed), written by triggers only. */
export interface ChangeVersionsTable {
  scope: ColumnType<'c' | 'p' | 'f' | 's', never, never>;
  id: ColumnType<string, never, never>;
  version: ColumnType<string, never, never>;
}

export interface CreditPurchasesTable {
  id: Generated<string>;
  creator_id: string;
  pack: string;
  credits: number;
  amount_cents: number;
  currency: Generated<string>;
  status: Generated<'pending' | 'paid'>;
  provider: 'stripe' | 'test';
  checkout_session_id: string | null;
  receipt_url: string | null;
  created_at: CreatedAt;
  paid_at: Date | string | null;
}

/** A payment provider's event, remembered once it was applied (each is applied once). */
export interface PaymentEventsTable {
  id: string;
  type: string;
  /** The provider that sent it ('stripe'). */
  provider: Generated<string>;
  received_at: CreatedAt;
}

/** A job to run once the change that wrote it commits (the one relay moves it to the queue; record 0077). */
export interface JobOutboxTable {
  id: Generated<string>;
  /** The job's name (its queue). */
  name: string;
  payload: ColumnType<unknown, string, never>;
  /**
   * The queue's job id: a job asked for twice while it waits is one job. Null: the row's own id is
   * (a job every change asks for anew, such as the answer policy's inputs changing).
   */
  job_key: string | null;
  priority: number | null;
  created_at: CreatedAt;
}

/** A draft of the creator's reply to a pending fan question, written by the AI (migration 2026-11-27T00-00). */
export interface ReplyDraftsTable {
  question_id: string;
  creator_id: string;
  body: string;
  sources: JSONColumnType<StoredSourceJson[], string, string>;
  /** The creator's content covers the question (false: the draft is empty and says so). */
  covered: boolean;
  /** The model that wrote it; null: the embedded answerer. */
  model: string | null;
  status: Generated<'open' | 'sent' | 'discarded'>;
  created_at: CreatedAt;
  closed_at: Date | string | null;
}

/** A citation as stored (the contracts' StoredSource, without importing it here). */
export interface StoredSourceJson {
  title: string;
  source: string;
  [key: string]: unknown;
}

/** Mail on its way (the background `mail` role sends it; record 0042). */
export interface MailOutboxTable {
  id: Generated<string>;
  purpose: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  created_at: CreatedAt;
  attempts: Generated<number>;
  last_error: string | null;
  sent_at: Date | null;
  message_id: string | null;
  failed_at: Date | null;
  /** Extra headers (List-Unsubscribe, List-Unsubscribe-Post). */
  headers: JSONColumnType<Record<string, string>, string, string> | null;
  /** The SMTP server refused the address for good (a 5xx): noted on the creator's settings. */
  bounced: Generated<boolean>;
}

/** What a creator hears about while away (record 0061). */
export type CreatorAlertKind =
  | 'question'
  | 'waiting'
  | 'budget_reached'
  | 'credits_low'
  | 'credits_out'
  | 'source_failed'
  | 'new_subscriber'
  | 'subscription_cancelled';

export interface CreatorAlertSettingsTable {
  creator_id: string;
  /** Per kind, per channel: { question: { email: true, push: false }, … }; a kind not listed is on. */
  channels: JSONColumnType<Record<string, { email?: boolean; push?: boolean }>, string | undefined, string>;
  wait_minutes: Generated<number>;
  /** Quiet hours, minutes after local midnight (both null: none). */
  quiet_start: number | null;
  quiet_end: number | null;
  time_zone: Generated<string>;
  digest: Generated<'daily' | 'weekly' | 'off'>;
  digest_hour: Generated<number>;
  /** The local date (YYYY-MM-DD) the last digest was considered on. */
  last_digest_on: string | null;
  email_bounced_at: Date | null;
  email_bounce_reason: string | null;
  updated_at: Generated<Date>;
}

export interface CreatorAlertsTable {
  id: Generated<string>;
  creator_id: string;
  kind: CreatorAlertKind;
  ref: string;
  fan_id: string | null;
  detail: Generated<string>;
  /**
   * Why a 'question' waits for the creator, as the ask noted it ('no_chatbot', 'no_credits',
   * 'over_budget', 'creator_online'); null: the AI handed it over.
   */
  reason: string | null;
  created_at: CreatedAt;
  sent_at: Date | null;
  batch_id: string | null;
}

export interface CreatorAlertBatchesTable {
  id: Generated<string>;
  creator_id: string;
  title: string;
  body: string;
  url: string;
  alert_count: number;
  emailed: Generated<boolean>;
  pushed: Generated<boolean>;
  created_at: CreatedAt;
}

export interface CreatorPushSubscriptionsTable {
  id: Generated<string>;
  creator_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  created_at: CreatedAt;
  last_pushed_at: Date | null;
}

export interface CreatorPushDeliveriesTable {
  subscription_id: string;
  batch_id: string;
  claimed_at: Generated<Date>;
}

/** A creator's Stripe Connect (Express) account and what Stripe last said of it. */
export interface CreatorPayoutAccountsTable {
  creator_id: string;
  account_id: string;
  charges_enabled: Generated<boolean>;
  payouts_enabled: Generated<boolean>;
  details_submitted: Generated<boolean>;
  updated_at: Generated<Date>;
  /** When the payment provider said it no longer knows this account (reconnect payouts); null: known. */
  lost_at: Generated<Date | null>;
}

/** What a creator's fans pay and get (record 0043). */
export interface FanPlansTable {
  creator_id: string;
  enabled: Generated<boolean>;
  monthly_cents: number;
  yearly_cents: number | null;
  trial_days: Generated<number>;
  /** AI answers per fan per calendar month (UTC) before the paywall. */
  free_answers: Generated<number>;
  perks: Generated<string>;
  lead_capture: Generated<boolean>;
  updated_at: Generated<Date>;
}

/** A fan's subscription on the creator's connected account, as the provider's events left it. */
export interface FanSubscriptionsTable {
  id: Generated<string>;
  creator_id: string;
  /** The payment provider ('stripe') and its ids for the subscription and the customer. */
  provider: Generated<string>;
  provider_subscription_id: string;
  provider_customer_id: string | null;
  checkout_session_id: string | null;
  fan_id: string | null;
  email: string | null;
  status: Generated<string>;
  interval: Generated<string>;
  amount_cents: Generated<number>;
  current_period_end: Date | null;
  cancel_at_period_end: Generated<boolean>;
  grace_until: Date | null;
  /** The subscription opens the chat until then (null: never did, or not yet). */
  access_until: Date | null;
  ended_reason: string | null;
  started_at: Date | null;
  ended_at: Date | null;
  /** Stripe's `created` of the event the state came from (seconds): older events change nothing. */
  state_at: ColumnType<string, string | number | undefined, string | number>;
  created_at: CreatedAt;
}

/** An invoice of a fan's subscription that was paid (earnings; what a refund or dispute names). */
export interface FanSubscriptionPaymentsTable {
  invoice_id: string;
  provider_subscription_id: string;
  provider_payment_id: string | null;
  amount_cents: number;
  fee_cents: Generated<number>;
  paid_at: Date;
  /** 'refund' or 'dispute' once the money went back. */
  reversed: string | null;
}

/** A one-time link that restores a subscriber's access (and conversation) on another browser. */
export interface FanRestoreLinksTable {
  id: Generated<string>;
  token_hash: string;
  creator_id: string;
  email: string;
  created_at: CreatedAt;
  expires_at: Date;
  used_at: Date | null;
}

/** One request for a restore link, by the email's hash (the per-email cap, record 0071). */
export interface FanRestoreRequestsTable {
  id: Generated<string>;
  email_hash: string;
  requested_at: Generated<Date>;
}

/** A group of a creator's fan questions that ask about the same thing (Insights' topics). */
export interface QuestionTopicsTable {
  id: Generated<string>;
  creator_id: string;
  label: string;
  /** 'model' when the configured chat model named it, else 'keywords'. */
  named_by: Generated<string>;
  /** Word -> questions of the group that use it. */
  keywords: JSONColumnType<Record<string, number>, string, string>;
  /** The mean of its questions' vectors, unit length. */
  centroid: JSONColumnType<number[], string, string>;
  embedder: string;
  size: Generated<number>;
  created_at: CreatedAt;
}

/** Which topic a fan question was grouped into (once, after it was asked). */
export interface QuestionTopicMembersTable {
  message_id: string;
  creator_id: string;
  topic_id: string;
  asked_at: Date | string;
}

/** How far a creator's questions were grouped (the newest grouped message id) and by which embedder. */
export interface QuestionTopicCursorsTable {
  creator_id: string;
  last_message_id: Generated<string>;
  embedder: string | null;
  updated_at: Generated<Date>;
}

/** Insights' answer quality of a creator's day (UTC), kept by insight_refresh_days (record 0081). */
export interface InsightDaysTable {
  creator_id: string;
  day: Date | string;
  questions: number;
  answered: number;
  ratings_up: number;
  ratings_down: number;
  /** Seconds from each answered question to its first answer. */
  answer_seconds: number[];
}

/** Insights' counts of a topic's day (UTC), kept by insight_refresh_days. */
export interface InsightTopicDaysTable {
  topic_id: string;
  creator_id: string;
  day: Date | string;
  questions: number;
  answered: number;
  ratings_up: number;
  ratings_down: number;
}

/** A creator's day whose Insights counts changed (append-only marks, written by triggers). */
export interface InsightDirtyDaysTable {
  id: Generated<string>;
  creator_id: string;
  day: Date | string;
}

/** A durable fact a fan shared with one creator's chat (docs/decisions/0079). */
export interface FanMemoryTable {
  id: Generated<string>;
  fan_id: string;
  creator_id: string;
  /** At most a short sentence (200 characters). */
  body: string;
  /** The fan message it came from; null once that message is gone. */
  source_message_id: string | null;
  corrected_by_creator: Generated<boolean>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface Database {
  creators: CreatorsTable;
  sessions: SessionsTable;
  chatbots: ChatbotsTable;
  knowledge_items: KnowledgeItemsTable;
  chunks: ChunksTable;
  chunk_windows: ChunkWindowsTable;
  fans: FansTable;
  fan_transfers: FanTransfersTable;
  messages: MessagesTable;
  answer_corrections: AnswerCorrectionsTable;
  fan_memory: FanMemoryTable;
  answer_correction_sends: AnswerCorrectionSendsTable;
  file_attachments: FileAttachmentsTable;
  notices: NoticesTable;
  push_subscriptions: PushSubscriptionsTable;
  push_deliveries: PushDeliveriesTable;
  job_outbox: JobOutboxTable;
  reply_drafts: ReplyDraftsTable;
  mail_outbox: MailOutboxTable;
  creator_alert_settings: CreatorAlertSettingsTable;
  creator_alerts: CreatorAlertsTable;
  creator_alert_batches: CreatorAlertBatchesTable;
  creator_push_subscriptions: CreatorPushSubscriptionsTable;
  creator_push_deliveries: CreatorPushDeliveriesTable;
  creator_payout_accounts: CreatorPayoutAccountsTable;
  fan_plans: FanPlansTable;
  fan_subscriptions: FanSubscriptionsTable;
  fan_subscription_payments: FanSubscriptionPaymentsTable;
  fan_restore_links: FanRestoreLinksTable;
  fan_restore_requests: FanRestoreRequestsTable;
  templates: TemplatesTable;
  credit_ledger: CreditLedgerTable;
  credit_totals: CreditTotalsTable;
  change_versions: ChangeVersionsTable;
  credit_purchases: CreditPurchasesTable;
  payment_events: PaymentEventsTable;
  widget_settings: WidgetSettingsTable;
  widget_refusals: WidgetRefusalsTable;
  question_topics: QuestionTopicsTable;
  question_topic_members: QuestionTopicMembersTable;
  question_topic_cursors: QuestionTopicCursorsTable;
  insight_days: InsightDaysTable;
  insight_topic_days: InsightTopicDaysTable;
  insight_dirty_days: InsightDirtyDaysTable;
}

export type CreatorRow = Selectable<CreatorsTable>;
export type NewCreator = Insertable<CreatorsTable>;
export type CreatorUpdate = Updateable<CreatorsTable>;
export type ChatbotRow = Selectable<ChatbotsTable>;
export type KnowledgeItemRow = Selectable<KnowledgeItemsTable>;
export type ChunkRow = Selectable<ChunksTable>;
export type FanRow = Selectable<FansTable>;
export type WidgetSettingsRow = Selectable<WidgetSettingsTable>;
export type FanTransferRow = Selectable<FanTransfersTable>;
export type MessageRow = Selectable<MessagesTable>;
export type AnswerCorrectionRow = Selectable<AnswerCorrectionsTable>;
export type FileAttachmentRow = Selectable<FileAttachmentsTable>;
export type NoticeRow = Selectable<NoticesTable>;
export type PushSubscriptionRow = Selectable<PushSubscriptionsTable>;
export type TemplateRow = Selectable<TemplatesTable>;
export type CreditLedgerRow = Selectable<CreditLedgerTable>;
export type SessionRow = Selectable<SessionsTable>;
