// @fanpilot/core: every rule of the product about its data, and the only code that writes a table
// (packages/core/src/ownership.test.ts enforces it). Framework-free: each function takes the Kysely
// handle or transaction it works in; refusals are DomainErrors, which the api maps to HTTP.
//
// Exports are named, never `export *` (issue 35, record 0085; tests/deploy/src/apps-hold-no-rule.test.ts
// fails on a star export here): a name is exported because an app or another package uses it. Use
// cases come first in each module's list; a repository or table helper listed here is one an app
// still calls (each is a use case not written yet, record 0085's Consequences). push-outbox.ts and
// mail-outbox.ts export all they define (being moved in parallel).

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
  buildAnswerContext,
  conversationProvider,
  correctionProvider,
  type AnswerContext,
  type AnswerRequest,
  type ContextProvider,
} from './answer-context.ts';
export {
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
  type AnswerRefusal,
} from './answer-policy.ts';
export { downloadableAttachment } from './attachments.ts';
export {
  attachCheckoutSession,
  billingOf,
  checkoutPack,
  completePaidCheckout,
  completePurchase,
  createPurchase,
  discardPurchase,
  ownPurchase,
} from './billing.ts';
export { readChangeVersions } from './change-versions.ts';
export {
  chatbotOwnerId,
  chatbotsRepository,
  deleteChatbot,
  greetingsOf,
  requireChatbot,
  saveChatbotWithSources,
} from './chatbots.ts';
export { citedPassage, downloadEpochOf, downloadableFile, readableCitingMessage } from './citations.ts';
export {
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
  type AnswerOutcome,
  type AskingBrowser,
} from './conversations/index.ts';
export { correctAnswer, sendCorrection, wrongAnswers, type EmbedQuestions } from './correction-fans.ts';
export {
  CORRECTION_SIMILARITY,
  asksSameQuestion,
  contentWords,
  cosine,
  deleteCorrection,
  listCorrections,
  normalizeQuestion,
  saveCorrection,
  type Correction,
} from './corrections.ts';
export {
  actingAs,
  creatorIdByUsername,
  creatorsRepository,
  knownCreatorId,
  profileImageInUse,
  reachableCreator,
  updateCreatorDescription,
} from './creators.ts';
export { adjustCredits, creditsRepository } from './credits.ts';
export { pingDatabase, type Db } from './db.ts';
export { circleAheadSql } from './entitlement.ts';
export { DomainError, type DomainReason } from './errors.ts';
export {
  applyStripeFact,
  applyStripeReading,
  assertFanPaymentsOn,
  assertFansCheckout,
  assertMailOn,
  captureLead,
  checkoutFor,
  confirmFor,
  earningsOf,
  fanPlanOf,
  fanPlanStateOf,
  leadsCsv,
  noSuchCheckout,
  notePayoutAccountLost,
  ownFan,
  payoutAccountOf,
  payoutStateOf,
  planIsLive,
  portalFor,
  recordPayoutAccount,
  redeemRestoreLink,
  replaceLostPayoutAccount,
  requestRestoreLink,
  saveFanPlan,
  subscriberFanKeys,
  subscriptionUnknownToProvider,
  takeRestoreRequest,
  type PayoutReport,
} from './fan-plans/index.ts';
export { creatorsFan, fanBindingOf, fansByIds, fansRepository, type FanStats } from './fans.ts';
export { inboxRepository, startOfToday } from './inbox.ts';
export {
  INSIGHT_PERIODS,
  gapRows,
  groupNewQuestions,
  insightsReport,
  keywordEmbedder,
  openGapsVersion,
  topicNamingModel,
  ungroupedQuestions,
  type GapRow,
  type InsightPeriod,
  type TopicEmbedder,
  type TopicNamer,
} from './insights/index.ts';
export { JOB_OUTBOX_CHANNEL, jobOutboxSize, takeJobOutbox, writeJob } from './job-outbox.ts';
export { knowledgeRepository } from './knowledge.ts';
export {
  STORE_BATCH_SIZE,
  hasVectorColumn,
  replaceItemVectors,
  storeChunks,
  type ChunkDraft,
  type StoreChunksInput,
  type StoreOutcome,
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
  KNOWLEDGE_UPLOAD_PREFIX,
  MIME_BY_EXTENSION,
  UNKNOWN_TYPES,
  assertOwnUploadKey,
  knowledgeFileType,
} from './knowledge-uploads.ts';
export {
  addKnowledgeFile,
  addKnowledgeSource,
  addYoutubeKnowledge,
  cleanFileName,
  deleteKnowledge,
  knowledgeFileTooLarge,
  knowledgeOfChatbot,
  knowledgeTarget,
  progressCounts,
  readSources,
  refetchKnowledge,
  refetchableKnowledge,
  updateKnowledge,
  type KnowledgePorts,
  type KnowledgeSources,
} from './knowledge-use-cases.ts';
export {
  MAIL_KEPT_MS,
  MAIL_OUTBOX_CHANNEL,
  mailOutboxSize,
  mailToSend,
  mailsTo,
  markMailFailed,
  markMailSent,
  pruneMailOutbox,
  queueMail,
  takeMailOutbox,
  type OutgoingMail,
} from './mail-outbox.ts';
export {
  MEMORY_ITEM_MAX_CHARS,
  correctFanMemoryItem,
  creatorFanMemory,
  deleteCreatorFanMemoryItem,
  deleteFanMemoryItem,
  fansOwnMemory,
  forgetOnRequest,
  keepExtractedMemory,
  memoryProvider,
  readFanMemory,
  setFanMemoryEnabled,
  unreadMemoryTurns,
} from './memory.ts';
export { messagesRepository, type MessageView } from './messages.ts';
export { noticesRepository } from './notices.ts';
export { completeOnboarding } from './onboarding.ts';
export { ownChatbot, ownKnowledgeFile } from './ownership.ts';
export { paymentOwners } from './payment-events.ts';
export { PUSH_OUTBOX_CHANNEL, pushOutboxSize, takePushOutbox } from './push-outbox.ts';
export {
  PUSH_SUBSCRIPTIONS_PER_BROWSER,
  checkPushServiceHost,
  checkSubscriptionKeys,
  pushSubscriptions,
  subscribingFan,
} from './push-subscriptions.ts';
export { findPushSubscription, pushRecipients, pushSubject } from './push-targets.ts';
export { poorlyRatedAnswers, rateAnswerAsFan } from './ratings.ts';
export {
  conversationBindings,
  followableConversation,
  mayActAsFan,
  mayFollowAsFan,
  sessionActsFor,
  sessionGrants,
  sessionIsLive,
  type ConversationBinding,
  type FanRequester,
  type SessionGrant,
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
