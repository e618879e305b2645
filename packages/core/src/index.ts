// @fanpilot/core: every rule of the product about its data, and the only code that writes a table
// (packages/core/src/ownership.test.ts enforces it). Framework-free: each function takes the Kysely
// handle or transaction it works in; refusals are DomainErrors, which the api maps to HTTP.
//
// Exports are named, never `export *` (issue 35, record 0085; tests/deploy/src/apps-hold-no-rule.test.ts
// fails on a star export here): a name is exported because an app or another package uses it. A
// repository or table helper listed here is one an app still calls (each is a use case not written
// yet, record 0085's Consequences).

export {
  alertBatch,
  creatorPushSubscriptions,
  digestContent,
  noteWaitingQuestions,
  notificationSettings,
  readUnsubscribeToken,
  sendDueAlerts,
  sendDueDigests,
  unsubscribeByToken,
  updateNotificationSettings,
} from './alerts/index.ts';
export {
  ANSWER_HISTORY_LIMIT,
  type AnswerContext,
  type AnswerRequest,
  buildAnswerContext,
  type ContextProvider,
  conversationProvider,
  correctionProvider,
} from './answer-context.ts';
export {
  type AnswerRefusal,
  aiAnswersSql,
  aiAnswersToday,
  aiRefusal,
  answerPriority,
  decideAnswer,
  fanSnapshotColumns,
  loadAnswerSnapshot,
  snapshotColumns,
  snapshotRefs,
  startOfUtcDay,
} from './answer-policy.ts';
export { downloadableAttachment } from './attachments.ts';
export {
  attachCheckoutSession,
  billingOf,
  buyCreditPack,
  type CreditCheckout,
  type CreditPorts,
  checkoutPack,
  completePaidCheckout,
  completePurchase,
  createPurchase,
  discardPurchase,
  ownPurchase,
} from './billing.ts';
export { readChangeVersions, sendChangeFence } from './change-versions.ts';
export {
  chatbotOwnerId,
  chatbotsRepository,
  deleteChatbot,
  greetingsOf,
  requireChatbot,
  saveChatbotWithSources,
} from './chatbots.ts';
export { citedPassage, downloadableFile, downloadEpochOf, readableCitingMessage } from './citations.ts';
export {
  type AnswerOutcome,
  type AskingBrowser,
  answerAsCreator,
  ask,
  checkAttachment,
  claimFan,
  deleteConversation,
  discardReplyDraft,
  draftableQuestion,
  fanNameOf,
  handOverToCreator,
  makeTransferLink,
  moveToAnotherBrowser,
  readCreatorChatlog,
  readFanChatlog,
  readFanConversation,
  saveReplyDraft,
  sendToFan,
  storeAiAnswer,
} from './conversations/index.ts';
export { correctAnswer, type EmbedQuestions, sendCorrection, wrongAnswers } from './correction-fans.ts';
export {
  asksSameQuestion,
  CORRECTION_SIMILARITY,
  type Correction,
  contentWords,
  cosine,
  deleteCorrection,
  listCorrections,
  normalizeQuestion,
  saveCorrection,
} from './corrections.ts';
export {
  actingAs,
  creatorIdByUsername,
  creatorsRepository,
  findReachableCreator,
  knownCreatorId,
  profileImageInUse,
  reachableCreator,
  updateCreatorDescription,
} from './creators.ts';
export { adjustCredits, creditsRepository } from './credits.ts';
export { type Db, pingDatabase } from './db.ts';
export { circleAheadSql } from './entitlement.ts';
export { DomainError, type DomainReason } from './errors.ts';
export {
  applyStripeFact,
  applyStripeReading,
  assertFanPaymentsOn,
  assertFansCheckout,
  assertMailOn,
  captureFanLead,
  captureLead,
  checkoutFor,
  confirmFor,
  earningsOf,
  type FanPlanCard,
  type FanPlanPorts,
  fanPlanOf,
  fanPlanStateOf,
  leadsCsv,
  noSuchCheckout,
  notePayoutAccountLost,
  ownFan,
  type PayoutReport,
  payoutAccountOf,
  payoutStateOf,
  planIsLive,
  portalFor,
  readFanPlanSettings,
  readFanPlanState,
  recordPayoutAccount,
  redeemRestoreLink,
  replaceLostPayoutAccount,
  requestRestoreLink,
  saveFanPlan,
  subscriberFanKeys,
  subscriptionUnknownToProvider,
  takeRestoreRequest,
  updateFanPlanSettings,
} from './fan-plans/index.ts';
export { creatorsFan, type FanStats, fanBindingOf, fansByIds, fansRepository } from './fans.ts';
export { inboxRepository, startOfToday } from './inbox.ts';
export {
  type GapRow,
  gapRows,
  groupNewQuestions,
  INSIGHT_PERIODS,
  type InsightPeriod,
  insightsReport,
  keywordEmbedder,
  openGapsVersion,
  type TopicEmbedder,
  type TopicNamer,
  topicNamingModel,
  ungroupedQuestions,
} from './insights/index.ts';
export { JOB_OUTBOX_CHANNEL, jobOutboxSize, takeJobOutbox, writeJob } from './job-outbox.ts';
export { knowledgeRepository } from './knowledge.ts';
export {
  type ChunkDraft,
  hasVectorColumn,
  replaceItemVectors,
  STORE_BATCH_SIZE,
  type StoreChunksInput,
  type StoreOutcome,
  storeChunks,
} from './knowledge-chunks.ts';
export { closeKnowledgeGaps, openKnowledgeGaps, requireOpenGaps } from './knowledge-gaps.ts';
export {
  claimKnowledgeItem,
  failKnowledgeRun,
  failStuckKnowledgeItem,
  keepKnowledgeChunks,
  requeueStuckKnowledgeItem,
} from './knowledge-runs.ts';
export {
  assertOwnUploadKey,
  KNOWLEDGE_UPLOAD_PREFIX,
  knowledgeFileType,
  MIME_BY_EXTENSION,
  UNKNOWN_TYPES,
} from './knowledge-uploads.ts';
export {
  addKnowledgeFile,
  addKnowledgeSource,
  addYoutubeKnowledge,
  cleanFileName,
  deleteKnowledge,
  type KnowledgePorts,
  type KnowledgeSources,
  knowledgeFileTooLarge,
  knowledgeOfChatbot,
  knowledgeTarget,
  progressCounts,
  readSources,
  refetchableKnowledge,
  refetchKnowledge,
  updateKnowledge,
} from './knowledge-use-cases.ts';
export {
  MAIL_KEPT_MS,
  mailsTo,
  mailToSend,
  markMailFailed,
  markMailSent,
  type OutgoingMail,
  pruneMailOutbox,
  queueMail,
} from './mail-outbox.ts';
export {
  correctFanMemoryItem,
  creatorFanMemory,
  deleteCreatorFanMemoryItem,
  deleteFanMemoryItem,
  fansOwnMemory,
  forgetCommand,
  forgetOnRequest,
  keepExtractedMemory,
  MEMORY_ITEM_MAX_CHARS,
  memoryProvider,
  readFanMemory,
  setFanMemoryEnabled,
  unreadMemoryTurns,
} from './memory.ts';
export { type MessageView, messagesRepository } from './messages.ts';
export { noticesRepository } from './notices.ts';
export { completeOnboarding } from './onboarding.ts';
export { ownChatbot, ownKnowledgeFile } from './ownership.ts';
export { paymentOwners } from './payment-events.ts';
export {
  checkPushServiceHost,
  checkSubscriptionKeys,
  PUSH_SUBSCRIPTIONS_PER_BROWSER,
  pushSubscriptions,
  subscribingFan,
} from './push-subscriptions.ts';
export { findPushSubscription, pushRecipients, pushSubject } from './push-targets.ts';
export { poorlyRatedAnswers, rateAnswerAsFan } from './ratings.ts';
export {
  type ConversationBinding,
  conversationBindings,
  type FanRequester,
  followableConversation,
  mayActAsFan,
  mayFollowAsFan,
  type SessionGrant,
  sessionActsFor,
  sessionGrants,
  sessionIsLive,
} from './rights.ts';
export { liveSessionOf, sessionsRepository } from './sessions.ts';
export { statusRepository } from './status.ts';
export { addTemplate, deleteTemplate, templatesRepository } from './templates.ts';
export { hashToken } from './tokens.ts';
export { firstFreeUsername, usernameAvailability, usernameBase } from './usernames.ts';
export { ensureVectorIndex, refreshChunkStatistics, typedEmbedding, vectorLiteral } from './vector-index.ts';
export {
  allowedWidgetSite,
  openWidgetChat,
  saveWidgetSettings,
  widgetConfigFor,
  widgetSettingsForCreator,
  widgetSettingsOf,
} from './widget.ts';
