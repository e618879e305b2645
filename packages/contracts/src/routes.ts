// The address of every api call (method and path, Fastify syntax), by name, with nothing else:
// the web apps build their requests from these tables without loading a schema (calls.ts adds the
// schemas; the api registers its routes from those). The fan app loads only `fanRoutes`.

/** The calls a fan's browser makes (the fan app's client knows these and no others). */
export const fanRoutes = {
  publicCreator: { method: 'GET', path: '/api/public/creators/:username' },
  fanChatlog: { method: 'GET', path: '/api/chatlog/fan/:fanId' },
  fanCitation: { method: 'GET', path: '/api/chatlog/fan/:fanId/messages/:messageId/citations/:n' },
  rateAnswer: { method: 'PUT', path: '/api/chatlog/fan/:fanId/messages/:messageId/rating' },
  ask: { method: 'POST', path: '/api/ask' },
  fanEvents: { method: 'GET', path: '/api/events/fans/:fanId' },
  createFanTransfer: { method: 'POST', path: '/api/fan-transfers' },
  redeemFanTransfer: { method: 'POST', path: '/api/fan-transfers/redeem' },
  pushKey: { method: 'GET', path: '/api/push/key' },
  subscribePush: { method: 'POST', path: '/api/push/subscriptions' },
  unsubscribePush: { method: 'DELETE', path: '/api/push/subscriptions' },
} as const;

/** The creator's calls, and the outside world's (uploads, Stripe). */
export const creatorRoutes = {
  currentUser: { method: 'GET', path: '/api/auth/user' },
  billing: { method: 'GET', path: '/api/creators/username/:username/billing' },
  checkout: { method: 'POST', path: '/api/creators/username/:username/billing/checkout' },
  creatorChatbot: { method: 'GET', path: '/api/creators/username/:username/chatbot' },
  createChatbot: { method: 'POST', path: '/api/creators/username/:username/chatbot' },
  chatbot: { method: 'GET', path: '/api/chatbots/:id' },
  updateChatbotSettings: { method: 'PUT', path: '/api/chatbots/:id/settings' },
  deleteChatbot: { method: 'DELETE', path: '/api/chatbots/:id' },
  creator: { method: 'GET', path: '/api/creators/username/:username' },
  updateProfileImage: { method: 'PUT', path: '/api/creators/username/:username/profile-image' },
  updateDescription: { method: 'PUT', path: '/api/creators/username/:username/description' },
  dashboardEvents: { method: 'GET', path: '/api/events/creators/:username' },
  inboxStats: { method: 'GET', path: '/api/creators/username/:username/stats' },
  conversations: { method: 'GET', path: '/api/creators/username/:username/conversations' },
  conversation: { method: 'GET', path: '/api/creators/username/:username/fans/:fanId/conversation' },
  knowledgeGaps: { method: 'GET', path: '/api/creators/username/:username/knowledge-gaps' },
  answerKnowledgeGap: { method: 'POST', path: '/api/creators/username/:username/knowledge-gaps/answer' },
  dismissKnowledgeGap: { method: 'POST', path: '/api/creators/username/:username/knowledge-gaps/dismiss' },
  answerer: { method: 'GET', path: '/api/creators/username/:username/answerer' },
  tryChatbot: { method: 'POST', path: '/api/creators/username/:username/playground' },
  corrections: { method: 'GET', path: '/api/creators/username/:username/corrections' },
  correctAnswer: { method: 'POST', path: '/api/creators/username/:username/corrections' },
  deleteCorrection: { method: 'DELETE', path: '/api/creators/username/:username/corrections/:id' },
  poorAnswers: { method: 'GET', path: '/api/creators/username/:username/poor-answers' },
  replyDraft: { method: 'POST', path: '/api/creators/username/:username/messages/:messageId/draft' },
  discardReplyDraft: { method: 'DELETE', path: '/api/creators/username/:username/messages/:messageId/draft' },
  knowledgeProgress: { method: 'GET', path: '/api/chatbots/:id/knowledge/progress' },
  addKnowledge: { method: 'POST', path: '/api/add-knowledge' },
  addYoutubeKnowledge: { method: 'POST', path: '/api/chatbots/:id/knowledge/youtube' },
  uploadKnowledgeFile: { method: 'POST', path: '/api/chatbots/:id/knowledge/upload' },
  addUploadedKnowledgeFile: { method: 'POST', path: '/api/chatbots/:id/knowledge/uploaded' },
  deleteKnowledge: { method: 'DELETE', path: '/api/knowledge/:id' },
  updateKnowledge: { method: 'PATCH', path: '/api/knowledge/:id' },
  citedFileDownload: { method: 'GET', path: '/api/knowledge/:id/download' },
  knowledgeFile: { method: 'GET', path: '/api/knowledge/:id/file' },
  retryKnowledge: { method: 'POST', path: '/api/knowledge/:id/retry' },
  resyncKnowledge: { method: 'POST', path: '/api/knowledge/:id/resync' },
  messages: { method: 'GET', path: '/api/creators/username/:username/messages' },
  fans: { method: 'GET', path: '/api/creators/username/:username/fans' },
  fansByQuery: { method: 'GET', path: '/api/fans' },
  fanMessages: { method: 'GET', path: '/api/creators/username/:username/fans/:fanId/messages' },
  chatlog: { method: 'GET', path: '/api/chatlog' },
  deleteConversation: { method: 'DELETE', path: '/api/chatlog/fan/:fanIdOrName' },
  answer: { method: 'POST', path: '/api/answer' },
  sendMessage: { method: 'POST', path: '/api/send-message' },
  downloadAttachment: { method: 'GET', path: '/api/files/:id/download' },
  profileImageUploadUrl: { method: 'POST', path: '/api/objects/upload' },
  creatorSignup: { method: 'POST', path: '/api/creator-signup' },
  status: { method: 'GET', path: '/api/creators/username/:username/status' },
  toggleStatus: { method: 'POST', path: '/api/toggle-status' },
  notice: { method: 'GET', path: '/api/creators/username/:username/notice' },
  noticeHistory: { method: 'GET', path: '/api/creators/username/:username/notice-history' },
  setNotice: { method: 'POST', path: '/api/creators/username/:username/set-notice' },
  templates: { method: 'GET', path: '/api/creators/username/:username/templates' },
  createTemplate: { method: 'POST', path: '/api/creators/username/:username/templates' },
  deleteTemplate: { method: 'DELETE', path: '/api/creators/username/:username/templates/:id' },
  usage: { method: 'GET', path: '/api/creators/username/:username/usage' },
  s3Params: { method: 'GET', path: '/api/s3/params' },
  s3Sts: { method: 'GET', path: '/api/s3/sts' },
  s3CreateMultipart: { method: 'POST', path: '/api/s3/multipart' },
  s3ListParts: { method: 'GET', path: '/api/s3/multipart/:uploadId' },
  s3SignPart: { method: 'GET', path: '/api/s3/multipart/:uploadId/:partNumber' },
  s3CompleteMultipart: { method: 'POST', path: '/api/s3/multipart/:uploadId/complete' },
  s3AbortMultipart: { method: 'DELETE', path: '/api/s3/multipart/:uploadId' },
  stripeWebhook: { method: 'POST', path: '/api/stripe/webhook' },
  notificationSettings: { method: 'GET', path: '/api/creators/username/:username/notifications' },
  updateNotificationSettings: { method: 'PUT', path: '/api/creators/username/:username/notifications' },
  creatorPushSubscribe: { method: 'POST', path: '/api/creators/username/:username/notifications/push' },
  creatorPushUnsubscribe: { method: 'DELETE', path: '/api/creators/username/:username/notifications/push' },
  unsubscribeAlerts: { method: 'POST', path: '/api/notifications/unsubscribe' },
} as const;

/**
 * Every call. (Built by a call marked pure, not a spread: a bundle that never reads `routes`, such
 * as the fan app's, then leaves it, and `creatorRoutes`, out.)
 */
export const routes: typeof fanRoutes & typeof creatorRoutes = /* @__PURE__ */ Object.assign(
  {},
  fanRoutes,
  creatorRoutes,
);

export type CallName = keyof typeof routes;
