// Every call of the HTTP api, once: method, path (Fastify syntax), request and response schemas.
// The api registers its routes from these (apps/api/src/routes), the web apps call them through
// the client (./client.ts), and the OpenAPI document at /api/docs is generated from them.
import { z } from 'zod';
import {
  answererSchema,
  correctAnswerRequestSchema,
  correctAnswerResponseSchema,
  correctionFansResponseSchema,
  correctionParamsSchema,
  correctionsResponseSchema,
  playgroundRequestSchema,
  playgroundResponseSchema,
  poorAnswersResponseSchema,
  rateAnswerParamsSchema,
  rateAnswerRequestSchema,
  rateAnswerResponseSchema,
  replyDraftParamsSchema,
  replyDraftResponseSchema,
  sendCorrectionResponseSchema,
} from './answers.ts';
import { billingSchema, checkoutRequestSchema, checkoutResponseSchema } from './billing.ts';
import {
  addKnowledgeRequestSchema,
  addYoutubeRequestSchema,
  chatbotIdParamsSchema,
  chatbotSchema,
  chatbotSettingsRequestSchema,
  createChatbotRequestSchema,
  creatorChatbotResponseSchema,
  deleteChatbotResponseSchema,
  deleteKnowledgeResponseSchema,
  knowledgeIdParamsSchema,
  knowledgeItemResponseSchema,
  knowledgeProgressSchema,
  updateKnowledgeRequestSchema,
} from './chatbot.ts';
import { UPLOAD_WIDGET } from './constants.ts';
import {
  creatorSchema,
  creatorSignupRequestSchema,
  creatorSignupResponseSchema,
  currentUserSchema,
  descriptionUpdateSchema,
  objectUploadResponseSchema,
  profileImageUpdateRequestSchema,
  profileImageUpdateResponseSchema,
  usernameParamsSchema,
} from './creator.ts';
import {
  captureLeadRequestSchema,
  checkoutUrlResponseSchema,
  confirmSubscriptionRequestSchema,
  connectPayoutsResponseSchema,
  earningsSchema,
  fanPlanQuerySchema,
  fanPlanResponseSchema,
  fanPlanSettingsSchema,
  fanPlanStateSchema,
  fanPortalRequestSchema,
  fanSubscribeRequestSchema,
  okResponseSchema,
  redeemRestoreLinkResponseSchema,
  redeemRestoreLinkSchema,
  requestRestoreLinkResponseSchema,
  requestRestoreLinkSchema,
} from './fan-plans.ts';
import {
  createFanTransferRequestSchema,
  createFanTransferResponseSchema,
  redeemFanTransferRequestSchema,
  redeemFanTransferResponseSchema,
} from './fan-transfer.ts';
import {
  answerGapRequestSchema,
  answerGapResponseSchema,
  dismissGapsRequestSchema,
  dismissGapsResponseSchema,
  knowledgeGapsResponseSchema,
} from './gaps.ts';
import {
  conversationPageParamsSchema,
  conversationPageQuerySchema,
  conversationPageSchema,
  conversationsPageSchema,
  conversationsQuerySchema,
  inboxStatsQuerySchema,
  inboxStatsSchema,
} from './inbox.ts';
import { insightsCsvParamsSchema, insightsQuerySchema, insightsSchema } from './insights.ts';
import {
  correctFanMemoryRequestSchema,
  creatorFanMemoryItemParamsSchema,
  creatorFanMemoryParamsSchema,
  fanMemoryItemParamsSchema,
  fanMemoryItemSchema,
  fanMemoryQuerySchema,
  fanMemorySchema,
  setFanMemoryRequestSchema,
} from './memory.ts';
import {
  answerRequestSchema,
  answerResponseSchema,
  askHeadersSchema,
  askRequestSchema,
  askResponseSchema,
  chatlogResponseSchema,
  citedFileDownloadQuerySchema,
  citedPassageSchema,
  creatorFanParamsSchema,
  creatorQuerySchema,
  deleteConversationResponseSchema,
  fanChatlogQuerySchema,
  fanChatlogResponseSchema,
  fanCitationParamsSchema,
  fanIdOrNameParamsSchema,
  fanIdParamsSchema,
  fanIdSchema,
  fanSchema,
  fileIdParamsSchema,
  messageSchema,
  messagesQuerySchema,
  publicCreatorSchema,
  sendMessageRequestSchema,
  sendMessageResponseSchema,
} from './messages.ts';
import {
  creatorPushResponseSchema,
  creatorPushSubscribeRequestSchema,
  creatorPushUnsubscribeRequestSchema,
  notificationSettingsResponseSchema,
  notificationSettingsSchema,
  unsubscribeQuerySchema,
  unsubscribeResponseSchema,
} from './notifications.ts';
import { pushKeyResponseSchema, subscribePushRequestSchema, unsubscribePushRequestSchema } from './push.ts';
import { type CallName, routes } from './routes.ts';
import {
  createTemplateRequestSchema,
  currentNoticeResponseSchema,
  noticeHistoryResponseSchema,
  onlineStatusSchema,
  setNoticeRequestSchema,
  setNoticeResponseSchema,
  successSchema,
  templateParamsSchema,
  templateSchema,
  templatesResponseSchema,
  toggleStatusRequestSchema,
  toggleStatusResponseSchema,
  usageSchema,
} from './status.ts';
import { filenameSchema, keyQuerySchema, partNumberSchema, typeSchema, uploadIdSchema } from './uploads.ts';
import { usernameAvailabilityParamsSchema, usernameAvailabilitySchema } from './username.ts';
import {
  openWidgetChatRequestSchema,
  openWidgetChatResponseSchema,
  widgetConfigSchema,
  widgetSettingsResponseSchema,
  widgetSettingsSchema,
} from './widget.ts';

/** One call: the request parts it validates and its responses by status. */
export interface CallDefinition {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  path: `/api/${string}`;
  tag: string;
  summary: string;
  schema: {
    params?: unknown;
    querystring?: unknown;
    body?: unknown;
    headers?: unknown;
    response?: Record<number, unknown>;
  };
}

export const calls = {
  currentUser: {
    ...routes.currentUser,
    tag: 'Auth',
    summary: 'The signed-in creator (401 when signed out).',
    schema: { response: { 200: currentUserSchema } },
  },
  billing: {
    ...routes.billing,
    tag: 'Billing',
    summary: 'Credits balance, purchases, AI answers per day and the packs on sale.',
    schema: { params: usernameParamsSchema, response: { 200: billingSchema } },
  },
  checkout: {
    ...routes.checkout,
    tag: 'Billing',
    summary: 'Starts buying a credit pack; answers where to pay.',
    schema: {
      params: usernameParamsSchema,
      body: checkoutRequestSchema,
      response: { 200: checkoutResponseSchema },
    },
  },
  creatorChatbot: {
    ...routes.creatorChatbot,
    tag: 'Chatbots',
    summary: "The creator's chatbot with its knowledge.",
    schema: { params: usernameParamsSchema, response: { 200: creatorChatbotResponseSchema } },
  },
  createChatbot: {
    ...routes.createChatbot,
    tag: 'Chatbots',
    summary: "Creates the creator's chatbot.",
    schema: {
      params: usernameParamsSchema,
      body: createChatbotRequestSchema,
      response: { 200: chatbotSchema },
    },
  },
  chatbot: {
    ...routes.chatbot,
    tag: 'Chatbots',
    summary: 'A chatbot of the signed-in creator.',
    schema: { params: chatbotIdParamsSchema, response: { 200: chatbotSchema } },
  },
  updateChatbotSettings: {
    ...routes.updateChatbotSettings,
    tag: 'Chatbots',
    summary: 'Saves Chatbot Settings.',
    schema: {
      params: chatbotIdParamsSchema,
      body: chatbotSettingsRequestSchema,
      response: { 200: chatbotSchema },
    },
  },
  deleteChatbot: {
    ...routes.deleteChatbot,
    tag: 'Chatbots',
    summary: "Deletes the creator's chatbot with all its knowledge (fans and conversations stay).",
    schema: { params: chatbotIdParamsSchema, response: { 200: deleteChatbotResponseSchema } },
  },
  creator: {
    ...routes.creator,
    tag: 'Creators',
    summary: "A creator's profile (the owner's view).",
    schema: { params: usernameParamsSchema, response: { 200: creatorSchema } },
  },
  updateProfileImage: {
    ...routes.updateProfileImage,
    tag: 'Creators',
    summary: 'Replaces the profile image with an uploaded one.',
    schema: {
      params: usernameParamsSchema,
      body: profileImageUpdateRequestSchema,
      response: { 200: profileImageUpdateResponseSchema },
    },
  },
  updateDescription: {
    ...routes.updateDescription,
    tag: 'Creators',
    summary: 'Replaces the description the creator wrote at signup (shown to fans).',
    schema: {
      params: usernameParamsSchema,
      body: descriptionUpdateSchema,
      response: { 200: descriptionUpdateSchema },
    },
  },
  dashboardEvents: {
    ...routes.dashboardEvents,
    tag: 'Live',
    summary: 'Server-Sent Events for an open dashboard.',
    schema: { params: usernameParamsSchema },
  },
  fanEvents: {
    ...routes.fanEvents,
    tag: 'Live',
    summary: 'Server-Sent Events for a fan chat.',
    schema: { params: z.object({ fanId: fanIdSchema }), querystring: creatorQuerySchema },
  },
  ask: {
    ...routes.ask,
    tag: 'Fan chat',
    summary: 'A fan asks the creator (idempotent with Idempotency-Key).',
    schema: { headers: askHeadersSchema, body: askRequestSchema, response: { 200: askResponseSchema } },
  },
  fanChatlog: {
    ...routes.fanChatlog,
    tag: 'Fan chat',
    summary: "A fan's conversation, as the fan sees it.",
    schema: {
      params: fanIdParamsSchema,
      querystring: fanChatlogQuerySchema,
      response: { 200: fanChatlogResponseSchema },
    },
  },
  fanMemory: {
    ...routes.fanMemory,
    tag: 'Fan chat',
    summary: "What the creator's assistant remembers about the fan (docs/product.md#memory).",
    schema: {
      params: fanIdParamsSchema,
      querystring: fanMemoryQuerySchema,
      response: { 200: fanMemorySchema },
    },
  },
  setFanMemory: {
    ...routes.setFanMemory,
    tag: 'Fan chat',
    summary: 'Turns the fan’s memory on or off; off deletes everything kept.',
    schema: {
      params: fanIdParamsSchema,
      querystring: fanMemoryQuerySchema,
      body: setFanMemoryRequestSchema,
      response: { 200: fanMemorySchema },
    },
  },
  deleteFanMemoryItem: {
    ...routes.deleteFanMemoryItem,
    tag: 'Fan chat',
    summary: 'Deletes one item of the fan’s memory.',
    schema: {
      params: fanMemoryItemParamsSchema,
      querystring: fanMemoryQuerySchema,
      response: { 200: fanMemorySchema },
    },
  },
  fanCitation: {
    ...routes.fanCitation,
    tag: 'Fan chat',
    summary:
      'The passage an AI answer cited from a file, for the fan it was given to or the creator (never the file itself).',
    schema: { params: fanCitationParamsSchema, response: { 200: citedPassageSchema } },
  },
  rateAnswer: {
    ...routes.rateAnswer,
    tag: 'Fan chat',
    summary:
      'The fan rates an AI answer in their own chat: thumbs up or down, an optional comment (null takes it back).',
    schema: {
      params: rateAnswerParamsSchema,
      body: rateAnswerRequestSchema,
      response: { 200: rateAnswerResponseSchema },
    },
  },
  createFanTransfer: {
    ...routes.createFanTransfer,
    tag: 'Fan chat',
    summary: "A one-time link that moves a fan's chat to another browser.",
    schema: { body: createFanTransferRequestSchema, response: { 200: createFanTransferResponseSchema } },
  },
  redeemFanTransfer: {
    ...routes.redeemFanTransfer,
    tag: 'Fan chat',
    summary: 'This browser takes over the chat a transfer link was made for.',
    schema: { body: redeemFanTransferRequestSchema, response: { 200: redeemFanTransferResponseSchema } },
  },
  widgetConfig: {
    ...routes.widgetConfig,
    tag: 'Widget',
    summary:
      "The widget's launcher (colour, position, text) for a site the creator allows (403 for any other site).",
    schema: { params: usernameParamsSchema, response: { 200: widgetConfigSchema } },
  },
  openWidgetChat: {
    ...routes.openWidgetChat,
    tag: 'Widget',
    summary:
      "The widget frame's chat on an allowed site (X-Widget-Site): issues its partitioned fan cookie, exchanges an old loader's token once, and says which conversation this browser holds.",
    schema: {
      params: usernameParamsSchema,
      body: openWidgetChatRequestSchema,
      response: { 200: openWidgetChatResponseSchema },
    },
  },
  widgetSettings: {
    ...routes.widgetSettings,
    tag: 'Widget',
    summary: "The creator's website widget: allowed sites, colour, position, launcher text.",
    schema: { params: usernameParamsSchema, response: { 200: widgetSettingsResponseSchema } },
  },
  saveWidgetSettings: {
    ...routes.saveWidgetSettings,
    tag: 'Widget',
    summary: "Replaces the creator's website widget settings.",
    schema: {
      params: usernameParamsSchema,
      body: widgetSettingsSchema,
      response: { 200: widgetSettingsResponseSchema },
    },
  },
  publicCreator: {
    ...routes.publicCreator,
    tag: 'Fan chat',
    summary: "The creator's card, as fans see it.",
    schema: { params: usernameParamsSchema, response: { 200: publicCreatorSchema } },
  },
  inboxStats: {
    ...routes.inboxStats,
    tag: 'Inbox',
    summary: 'Counts for the dashboard: fans, waiting messages, AI answers.',
    schema: {
      params: usernameParamsSchema,
      querystring: inboxStatsQuerySchema,
      response: { 200: inboxStatsSchema },
    },
  },
  conversations: {
    ...routes.conversations,
    tag: 'Inbox',
    summary: 'Conversations, newest first, paged by cursor; filter and search.',
    schema: {
      params: usernameParamsSchema,
      querystring: conversationsQuerySchema,
      response: { 200: conversationsPageSchema },
    },
  },
  conversation: {
    ...routes.conversation,
    tag: 'Inbox',
    summary: 'One conversation, newest page first, paged backwards.',
    schema: {
      params: conversationPageParamsSchema,
      querystring: conversationPageQuerySchema,
      response: { 200: conversationPageSchema },
    },
  },
  insights: {
    ...routes.insights,
    tag: 'Insights',
    summary: 'What fans want: topics, what to make next, the funnel and answer quality for a period.',
    schema: {
      params: usernameParamsSchema,
      querystring: insightsQuerySchema,
      response: { 200: insightsSchema },
    },
  },
  insightsCsv: {
    ...routes.insightsCsv,
    tag: 'Insights',
    summary: "One of Insights' tables (topics, gaps, funnel, quality) for a period, as CSV.",
    schema: { params: insightsCsvParamsSchema, querystring: insightsQuerySchema },
  },
  knowledgeGaps: {
    ...routes.knowledgeGaps,
    tag: 'Knowledge gaps',
    summary: 'Fan questions the AI could not ground, grouped.',
    schema: { params: usernameParamsSchema, response: { 200: knowledgeGapsResponseSchema } },
  },
  answerKnowledgeGap: {
    ...routes.answerKnowledgeGap,
    tag: 'Knowledge gaps',
    summary: 'Answers a gap: the fans get the answer and it becomes a knowledge note.',
    schema: {
      params: usernameParamsSchema,
      body: answerGapRequestSchema,
      response: { 200: answerGapResponseSchema },
    },
  },
  dismissKnowledgeGap: {
    ...routes.dismissKnowledgeGap,
    tag: 'Knowledge gaps',
    summary: 'Sets a gap aside.',
    schema: {
      params: usernameParamsSchema,
      body: dismissGapsRequestSchema,
      response: { 200: dismissGapsResponseSchema },
    },
  },
  answerer: {
    ...routes.answerer,
    tag: 'Answers',
    summary:
      'Who really answers fans: the chatbot model when its key is set, else the embedded answerer (and what to set).',
    schema: { params: usernameParamsSchema, response: { 200: answererSchema } },
  },
  tryChatbot: {
    ...routes.tryChatbot,
    tag: 'Answers',
    summary:
      'Try your chatbot: the answer a fan would get, its sources and the passages retrieved. Free of credits, outside the inbox.',
    schema: {
      params: usernameParamsSchema,
      body: playgroundRequestSchema,
      response: { 200: playgroundResponseSchema },
    },
  },
  corrections: {
    ...routes.corrections,
    tag: 'Answers',
    summary: "The creator's corrections (their own answers, which win over other knowledge), newest first.",
    schema: { params: usernameParamsSchema, response: { 200: correctionsResponseSchema } },
  },
  correctAnswer: {
    ...routes.correctAnswer,
    tag: 'Answers',
    summary:
      'Corrects an AI answer: the right answer wins for the question and its paraphrases; optionally sent to every fan who got a wrong answer to it.',
    schema: {
      params: usernameParamsSchema,
      body: correctAnswerRequestSchema,
      response: { 200: correctAnswerResponseSchema },
    },
  },
  replyDraft: {
    ...routes.replyDraft,
    tag: 'Answers',
    summary:
      "An AI draft of the creator's reply to a pending fan question, from their content: written once, then read back (one credit when a reply uses it).",
    schema: { params: replyDraftParamsSchema, response: { 200: replyDraftResponseSchema } },
  },
  creatorFanMemory: {
    ...routes.creatorFanMemory,
    tag: 'Messages',
    summary: 'What the assistant remembers about one of the creator’s fans.',
    schema: { params: creatorFanMemoryParamsSchema, response: { 200: fanMemorySchema } },
  },
  correctFanMemoryItem: {
    ...routes.correctFanMemoryItem,
    tag: 'Messages',
    summary: 'Corrects an item of a fan’s memory.',
    schema: {
      params: creatorFanMemoryItemParamsSchema,
      body: correctFanMemoryRequestSchema,
      response: { 200: fanMemoryItemSchema },
    },
  },
  deleteCreatorFanMemoryItem: {
    ...routes.deleteCreatorFanMemoryItem,
    tag: 'Messages',
    summary: 'Deletes an item of a fan’s memory.',
    schema: { params: creatorFanMemoryItemParamsSchema, response: { 200: fanMemorySchema } },
  },
  discardReplyDraft: {
    ...routes.discardReplyDraft,
    tag: 'Answers',
    summary: 'Sets the AI draft of a reply aside: nothing is charged and it is not offered again.',
    schema: { params: replyDraftParamsSchema, response: { 200: replyDraftResponseSchema } },
  },
  deleteCorrection: {
    ...routes.deleteCorrection,
    tag: 'Answers',
    summary: 'Deletes a correction.',
    schema: { params: correctionParamsSchema, response: { 200: successSchema } },
  },
  correctionFans: {
    ...routes.correctionFans,
    tag: 'Answers',
    summary:
      'The fans who got a wrong answer that a correction corrects (their question asks it, or a paraphrase), and whether each was sent it.',
    schema: { params: correctionParamsSchema, response: { 200: correctionFansResponseSchema } },
  },
  sendCorrection: {
    ...routes.sendCorrection,
    tag: 'Answers',
    summary: 'Sends a correction to every fan who got a wrong answer to it and was not sent it yet.',
    schema: { params: correctionParamsSchema, response: { 200: sendCorrectionResponseSchema } },
  },
  poorAnswers: {
    ...routes.poorAnswers,
    tag: 'Answers',
    summary: 'AI answers fans rated down, newest first: the ones to correct.',
    schema: { params: usernameParamsSchema, response: { 200: poorAnswersResponseSchema } },
  },
  knowledgeProgress: {
    ...routes.knowledgeProgress,
    tag: 'Knowledge',
    summary: 'Processing progress and the knowledge items.',
    schema: { params: chatbotIdParamsSchema, response: { 200: knowledgeProgressSchema } },
  },
  addKnowledge: {
    ...routes.addKnowledge,
    tag: 'Knowledge',
    summary: 'Adds a web page (or YouTube link) as a knowledge source.',
    schema: { body: addKnowledgeRequestSchema, response: { 200: knowledgeItemResponseSchema } },
  },
  addYoutubeKnowledge: {
    ...routes.addYoutubeKnowledge,
    tag: 'Knowledge',
    summary: "Adds a YouTube video's transcript as a knowledge source.",
    schema: {
      params: chatbotIdParamsSchema,
      body: addYoutubeRequestSchema,
      response: { 200: knowledgeItemResponseSchema },
    },
  },
  uploadKnowledgeFile: {
    ...routes.uploadKnowledgeFile,
    tag: 'Knowledge',
    summary: 'Uploads a knowledge file in the request (multipart).',
    schema: { params: chatbotIdParamsSchema, response: { 200: knowledgeItemResponseSchema } },
  },
  addUploadedKnowledgeFile: {
    ...routes.addUploadedKnowledgeFile,
    tag: 'Knowledge',
    summary: 'Turns a file uploaded straight to storage into a knowledge source.',
    schema: {
      params: chatbotIdParamsSchema,
      body: z.object({
        key: z.string().min(1).max(1024),
        filename: z.string().trim().min(1).max(255).optional(),
        /** Fans who were cited the file may download it whole (default false). */
        fansMayDownload: z.boolean().optional(),
      }),
      response: { 200: knowledgeItemResponseSchema },
    },
  },
  deleteKnowledge: {
    ...routes.deleteKnowledge,
    tag: 'Knowledge',
    summary: 'Deletes a knowledge source and its chunks.',
    schema: { params: knowledgeIdParamsSchema, response: { 200: deleteKnowledgeResponseSchema } },
  },
  updateKnowledge: {
    ...routes.updateKnowledge,
    tag: 'Knowledge',
    summary: 'Changes a knowledge source: whether fans may download the file.',
    schema: {
      params: knowledgeIdParamsSchema,
      body: updateKnowledgeRequestSchema,
      response: { 200: knowledgeItemResponseSchema },
    },
  },
  retryKnowledge: {
    ...routes.retryKnowledge,
    tag: 'Knowledge',
    summary: 'Processes a failed knowledge source again.',
    schema: { params: knowledgeIdParamsSchema, response: { 200: knowledgeItemResponseSchema } },
  },
  resyncKnowledge: {
    ...routes.resyncKnowledge,
    tag: 'Knowledge',
    summary: 'Fetches a knowledge source again.',
    schema: { params: knowledgeIdParamsSchema, response: { 200: knowledgeItemResponseSchema } },
  },
  messages: {
    ...routes.messages,
    tag: 'Messages',
    summary: 'The latest messages of every conversation.',
    schema: {
      params: usernameParamsSchema,
      querystring: messagesQuerySchema,
      response: { 200: z.array(messageSchema) },
    },
  },
  fans: {
    ...routes.fans,
    tag: 'Messages',
    summary: "The creator's fans.",
    schema: { params: usernameParamsSchema, response: { 200: z.array(fanSchema) } },
  },
  fansByQuery: {
    ...routes.fansByQuery,
    tag: 'Messages',
    summary: "The creator's fans (creator in the query).",
    schema: { querystring: creatorQuerySchema, response: { 200: z.array(fanSchema) } },
  },
  fanMessages: {
    ...routes.fanMessages,
    tag: 'Messages',
    summary: "One fan's messages.",
    schema: { params: creatorFanParamsSchema, response: { 200: z.array(messageSchema) } },
  },
  chatlog: {
    ...routes.chatlog,
    tag: 'Messages',
    summary: "Every message of the creator's conversations.",
    schema: { querystring: creatorQuerySchema, response: { 200: chatlogResponseSchema } },
  },
  deleteConversation: {
    ...routes.deleteConversation,
    tag: 'Messages',
    summary: 'Deletes a conversation.',
    schema: {
      params: fanIdOrNameParamsSchema,
      querystring: creatorQuerySchema,
      response: { 200: deleteConversationResponseSchema },
    },
  },
  answer: {
    ...routes.answer,
    tag: 'Messages',
    summary: "The creator answers a fan's question.",
    schema: { body: answerRequestSchema, response: { 200: answerResponseSchema } },
  },
  sendMessage: {
    ...routes.sendMessage,
    tag: 'Messages',
    summary: 'The creator messages a fan directly.',
    schema: { body: sendMessageRequestSchema, response: { 200: sendMessageResponseSchema } },
  },
  downloadAttachment: {
    ...routes.downloadAttachment,
    tag: 'Messages',
    summary: 'A file a fan attached, for its creator.',
    schema: { params: fileIdParamsSchema },
  },
  profileImageUploadUrl: {
    ...routes.profileImageUploadUrl,
    tag: 'Onboarding',
    summary: 'A pre-signed address to upload a profile image to.',
    schema: { response: { 200: objectUploadResponseSchema } },
  },
  creatorSignup: {
    ...routes.creatorSignup,
    tag: 'Onboarding',
    summary: 'Finishes onboarding: profile, chatbot and free credits.',
    schema: { body: creatorSignupRequestSchema, response: { 200: creatorSignupResponseSchema } },
  },
  usernameAvailability: {
    ...routes.usernameAvailability,
    tag: 'Onboarding',
    summary:
      'Whether the signed-in creator may take a username at signup: its rules, reserved words, other creators’ names; a free suggestion when not.',
    schema: { params: usernameAvailabilityParamsSchema, response: { 200: usernameAvailabilitySchema } },
  },
  citedFileDownload: {
    ...routes.citedFileDownload,
    tag: 'Fan chat',
    summary:
      'A knowledge file, whole, through a short-lived signed link from fanCitation (only where the creator allows downloads; honours Range).',
    schema: { params: knowledgeIdParamsSchema, querystring: citedFileDownloadQuerySchema },
  },
  knowledgeFile: {
    ...routes.knowledgeFile,
    tag: 'Knowledge',
    summary:
      "The signed-in creator's own knowledge file, to open (PDF and text inline, others as a download).",
    schema: { params: knowledgeIdParamsSchema },
  },
  pushKey: {
    ...routes.pushKey,
    tag: 'Push',
    summary: 'The VAPID public key for Web Push subscriptions.',
    schema: { response: { 200: pushKeyResponseSchema } },
  },
  subscribePush: {
    ...routes.subscribePush,
    tag: 'Push',
    summary: "Keeps a fan device's Web Push subscription.",
    schema: {
      body: subscribePushRequestSchema,
      response: { 200: z.object({ success: z.literal(true), preview: z.boolean() }) },
    },
  },
  unsubscribePush: {
    ...routes.unsubscribePush,
    tag: 'Push',
    summary: "Forgets a device's Web Push subscription.",
    schema: {
      body: unsubscribePushRequestSchema,
      response: { 200: z.object({ success: z.literal(true), removed: z.number().int() }) },
    },
  },
  status: {
    ...routes.status,
    tag: 'Status',
    summary: 'Online/Offline, status texts and the current notice.',
    schema: { params: usernameParamsSchema, response: { 200: onlineStatusSchema } },
  },
  toggleStatus: {
    ...routes.toggleStatus,
    tag: 'Status',
    summary: 'Flips Online/Offline.',
    schema: { body: toggleStatusRequestSchema, response: { 200: toggleStatusResponseSchema } },
  },
  notice: {
    ...routes.notice,
    tag: 'Status',
    summary: 'The current announcement.',
    schema: { params: usernameParamsSchema, response: { 200: currentNoticeResponseSchema } },
  },
  noticeHistory: {
    ...routes.noticeHistory,
    tag: 'Status',
    summary: 'Past announcements.',
    schema: { params: usernameParamsSchema, response: { 200: noticeHistoryResponseSchema } },
  },
  setNotice: {
    ...routes.setNotice,
    tag: 'Status',
    summary: 'Broadcasts an announcement (optionally pushed).',
    schema: {
      params: usernameParamsSchema,
      body: setNoticeRequestSchema,
      response: { 200: setNoticeResponseSchema },
    },
  },
  templates: {
    ...routes.templates,
    tag: 'Status',
    summary: 'Saved replies.',
    schema: { params: usernameParamsSchema, response: { 200: templatesResponseSchema } },
  },
  createTemplate: {
    ...routes.createTemplate,
    tag: 'Status',
    summary: 'Saves a reply.',
    schema: {
      params: usernameParamsSchema,
      body: createTemplateRequestSchema,
      response: { 200: templateSchema },
    },
  },
  deleteTemplate: {
    ...routes.deleteTemplate,
    tag: 'Status',
    summary: 'Deletes a saved reply.',
    schema: { params: templateParamsSchema, response: { 200: successSchema } },
  },
  usage: {
    ...routes.usage,
    tag: 'Billing',
    summary: "Credits used and left, and today's AI answers.",
    schema: { params: usernameParamsSchema, response: { 200: usageSchema } },
  },
  s3Params: {
    ...routes.s3Params,
    tag: 'Uploads',
    summary: 'Signs a one-request upload (Uppy AWS S3 protocol).',
    schema: {
      querystring: z.object({ filename: filenameSchema, type: typeSchema }).passthrough(),
    },
  },
  s3Sts: {
    ...routes.s3Sts,
    tag: 'Uploads',
    summary: 'Temporary credentials: not offered (404).',
    schema: {},
  },
  s3CreateMultipart: {
    ...routes.s3CreateMultipart,
    tag: 'Uploads',
    summary: 'Starts a multipart upload.',
    schema: {
      body: z.object({
        filename: filenameSchema,
        type: typeSchema,
        metadata: z.record(z.string(), z.unknown()).optional(),
      }),
    },
  },
  s3ListParts: {
    ...routes.s3ListParts,
    tag: 'Uploads',
    summary: 'The parts uploaded so far.',
    schema: { params: z.object({ uploadId: uploadIdSchema }), querystring: keyQuerySchema },
  },
  s3SignPart: {
    ...routes.s3SignPart,
    tag: 'Uploads',
    summary: "Signs one part's upload.",
    schema: {
      params: z.object({ uploadId: uploadIdSchema, partNumber: partNumberSchema }),
      querystring: keyQuerySchema,
    },
  },
  s3CompleteMultipart: {
    ...routes.s3CompleteMultipart,
    tag: 'Uploads',
    summary: 'Completes a multipart upload.',
    schema: {
      params: z.object({ uploadId: uploadIdSchema }),
      querystring: keyQuerySchema,
      body: z.object({
        parts: z
          .array(z.object({ PartNumber: partNumberSchema, ETag: z.string().min(1).max(200) }))
          .min(1)
          .max(UPLOAD_WIDGET.maxParts),
      }),
    },
  },
  s3AbortMultipart: {
    ...routes.s3AbortMultipart,
    tag: 'Uploads',
    summary: 'Aborts a multipart upload.',
    schema: { params: z.object({ uploadId: uploadIdSchema }), querystring: keyQuerySchema },
  },
  stripeWebhook: {
    ...routes.stripeWebhook,
    tag: 'Billing',
    summary:
      "Stripe's events (credit checkouts; fans' subscriptions and creators' connected accounts), signed with the webhook secret; the raw body is verified.",
    schema: {},
  },
  notificationSettings: {
    ...routes.notificationSettings,
    tag: 'Notifications',
    summary: 'What the creator is alerted of, by email and push; quiet hours, time zone, digest.',
    schema: { params: usernameParamsSchema, response: { 200: notificationSettingsResponseSchema } },
  },
  updateNotificationSettings: {
    ...routes.updateNotificationSettings,
    tag: 'Notifications',
    summary: 'Saves the notification settings (saving clears a noted bounce: email is tried again).',
    schema: {
      params: usernameParamsSchema,
      body: notificationSettingsSchema,
      response: { 200: notificationSettingsResponseSchema },
    },
  },
  creatorPushSubscribe: {
    ...routes.creatorPushSubscribe,
    tag: 'Notifications',
    summary: "Alerts pushed to this browser of the creator's.",
    schema: {
      params: usernameParamsSchema,
      body: creatorPushSubscribeRequestSchema,
      response: { 200: creatorPushResponseSchema },
    },
  },
  creatorPushUnsubscribe: {
    ...routes.creatorPushUnsubscribe,
    tag: 'Notifications',
    summary: 'No more alert pushes to this browser.',
    schema: {
      params: usernameParamsSchema,
      body: creatorPushUnsubscribeRequestSchema,
      response: { 200: creatorPushResponseSchema },
    },
  },
  unsubscribeAlerts: {
    ...routes.unsubscribeAlerts,
    tag: 'Notifications',
    summary:
      "One-click unsubscribe (RFC 8058) from an alert or digest email's signed link: no sign-in needed.",
    schema: { querystring: unsubscribeQuerySchema, response: { 200: unsubscribeResponseSchema } },
  },
  unsubscribePage: {
    ...routes.unsubscribePage,
    tag: 'Notifications',
    summary:
      "The unsubscribe link in an email's text: an HTML page with the one button that unsubscribes (a link scanner stops nothing).",
    schema: { querystring: unsubscribeQuerySchema },
  },
  fanPlan: {
    ...routes.fanPlan,
    tag: 'Fan plans',
    summary: "The creator's plan for fans, payouts state, presets and the platform fee.",
    schema: { params: usernameParamsSchema, response: { 200: fanPlanResponseSchema } },
  },
  updateFanPlan: {
    ...routes.updateFanPlan,
    tag: 'Fan plans',
    summary: 'Sets the plan: monthly price, optional yearly price and trial, free answers, lead capture.',
    schema: {
      params: usernameParamsSchema,
      body: fanPlanSettingsSchema,
      response: { 200: fanPlanResponseSchema },
    },
  },
  connectPayouts: {
    ...routes.connectPayouts,
    tag: 'Fan plans',
    summary:
      "Where to connect payouts: Stripe's Express onboarding (an account link), or the local test flow.",
    schema: { params: usernameParamsSchema, response: { 200: connectPayoutsResponseSchema } },
  },
  earnings: {
    ...routes.earnings,
    tag: 'Fan plans',
    summary: 'Subscribers, MRR, the fee, new and cancelled this month, the measured conversion, payouts.',
    schema: { params: usernameParamsSchema, response: { 200: earningsSchema } },
  },
  fanLeads: {
    ...routes.fanLeads,
    tag: 'Fan plans',
    summary: 'The emails fans gave (lead capture, subscriptions), as CSV.',
    schema: { params: usernameParamsSchema },
  },
  fanPlanState: {
    ...routes.fanPlanState,
    tag: 'Fan chat',
    summary: "The creator's plan card, the free answers left, the paywall and this fan's subscription.",
    schema: {
      params: fanIdParamsSchema,
      querystring: fanPlanQuerySchema,
      response: { 200: fanPlanStateSchema },
    },
  },
  fanSubscribe: {
    ...routes.fanSubscribe,
    tag: 'Fan chat',
    summary:
      "Starts a subscription to the creator: Stripe Checkout (subscription mode) on the creator's account.",
    schema: { body: fanSubscribeRequestSchema, response: { 200: checkoutUrlResponseSchema } },
  },
  confirmFanSubscription: {
    ...routes.confirmFanSubscription,
    tag: 'Fan chat',
    summary: 'Back from Checkout: reads the session from Stripe and unlocks the chat at once.',
    schema: { body: confirmSubscriptionRequestSchema, response: { 200: fanPlanStateSchema } },
  },
  fanSubscriptionPortal: {
    ...routes.fanSubscriptionPortal,
    tag: 'Fan chat',
    summary: "Manage subscription: Stripe's customer portal for this fan's subscription.",
    schema: { body: fanPortalRequestSchema, response: { 200: checkoutUrlResponseSchema } },
  },
  requestRestoreLink: {
    ...routes.requestRestoreLink,
    tag: 'Fan chat',
    summary: 'Mails a one-time link that restores a subscription (and its chat) on this browser.',
    schema: { body: requestRestoreLinkSchema, response: { 200: requestRestoreLinkResponseSchema } },
  },
  redeemRestoreLink: {
    ...routes.redeemRestoreLink,
    tag: 'Fan chat',
    summary: "This browser takes over the subscriber's chat a restore link was mailed for.",
    schema: { body: redeemRestoreLinkSchema, response: { 200: redeemRestoreLinkResponseSchema } },
  },
  captureLead: {
    ...routes.captureLead,
    tag: 'Fan chat',
    summary: 'The fan gives an email before the paywall (when the creator asks for one).',
    schema: { body: captureLeadRequestSchema, response: { 200: okResponseSchema } },
  },
} as const satisfies { [N in CallName]: CallDefinition };

export type Calls = typeof calls;

type ResponseSchemas = Partial<Record<number, { parse: (value: unknown) => unknown }>>;

/**
 * A call's answer as its schema says it is: pass it as `check` to `createApiClient`, and an answer
 * that does not match its schema fails the call instead of reaching the screen cast.
 */
export function checkAnswer(name: CallName, status: number, body: unknown): unknown {
  const schema = (calls[name].schema as { response?: ResponseSchemas }).response?.[status];
  return schema ? schema.parse(body) : body;
}
