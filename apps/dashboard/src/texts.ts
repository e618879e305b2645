import { type LoginErrorCode, PRODUCT_NAME, RESPONSE_RATE_PERCENT } from '@fanpilot/contracts';

/**
 * Every text a person reads in the dashboard app, but those of the landing page and of what is not on
 * the dashboard's first screen, which sit beside their components (components/landing/texts.ts,
 * …/texts.ts; issue 39). The product description (docs/product.md#exact-texts) texts are quoted exactly.
 */
const number = (n: number) => n.toLocaleString('en-US');
/** A count and its noun, singular for exactly one: '1 fan', '0 fans', '2 fans'. */
export const count = (n: number, one: string, many: string) => `${number(n)} ${n === 1 ? one : many}`;
/** The noun alone, agreeing with a count: `of ${n} ${noun(n, 'source', 'sources')}`. */
const noun = (n: number, one: string, many: string) => (n === 1 ? one : many);

export const TEXT = {
  productName: PRODUCT_NAME,
  common: {
    loading: 'Loading…',
    close: 'Close',
    // The buttons of a delete confirmation (the product description (docs/product.md#contractual-texts) gives its questions, not its buttons).
    cancel: 'Cancel',
    delete: 'Delete',
    notification: 'Notification',
    skipToContent: 'Skip to main content',
    somethingWentWrong: 'Something went wrong',
    reloadHint: 'Please reload the page. If this keeps happening, try again in a few minutes.',
    reload: 'Reload',
  },

  loginError: {
    title: '로그인 오류',
    messages: {
      google_oauth_error: 'Google 로그인 중 오류가 발생했습니다.',
      oauth_callback_failed: 'OAuth 콜백 처리 중 오류가 발생했습니다.',
      no_user_returned: '사용자 정보를 받아오지 못했습니다.',
      login_failed: '로그인 처리 중 오류가 발생했습니다.',
    } satisfies Record<LoginErrorCode, string>,
    generic: '로그인 중 오류가 발생했습니다.',
  },

  share: {
    copyFanLink: 'Copy fan app link',
    copyDashboardLink: 'Copy dashboard link',
    copied: 'Link copied',
    copyFailed: 'Could not copy the link; select it and copy it yourself',
    downloadQr: 'Download QR code (PNG)',
    qrAlt: (url: string) => `QR code for ${url}`,
  },

  auth: {
    requiredTitle: 'Authentication Required',
    requiredDescription: 'Please sign in to continue with chatbot creation.',
    dashboardRequiredDescription: 'Please sign in to open your dashboard.',
  },

  shell: {
    connectedLive: 'Connected live',
    openMenu: 'Open menu',
    menuTitle: 'Menu',
    sectionsLabel: 'Dashboard sections',
    logout: 'Logout',
    profileButton: 'Open profile',
    sections: {
      dashboard: 'Dashboard',
      insights: 'Insights',
      chats: 'Chat Management',
      announcements: 'Announcements',
      profile: 'Profile Settings',
      billing: 'Billing',
      earnings: 'Fans & Earnings',
      notifications: 'Notifications',
    },
  },

  status: {
    label: 'Response Status',
    changed: 'Status changed successfully.',
    changeFailed: 'Failed to change status.',
  },

  dashboard: {
    welcome: (name: string) => `Welcome back, ${name}`,
    welcomeFirst: (name: string) => `Welcome, ${name}`,
    stats: {
      label: 'Today at a glance',
      pending: 'Pending questions',
      todayResponses: "Today's responses",
      todayAiResponses: "Today's AI responses",
      responseRate: 'Response rate',
      responseRateValue: `${RESPONSE_RATE_PERCENT}%`,
    },
    chatbot: {
      heading: 'Chatbot status',
      active: 'AI Chatbot Active',
      paused: 'AI paused',
      activeDetail: (name: string) => `${name} answers your fans while you are Offline.`,
      none: 'No chatbot yet',
      noneDetail: 'Create a chatbot so the AI can answer your fans while you are Offline.',
      create: 'Create Chatbot',
      unavailable: 'The chatbot status cannot be read right now.',
      remove: 'Delete chatbot',
      confirmRemove: (name: string) => `Are you sure you want to delete the chatbot ${name}?`,
      confirmRemoveDetail: 'Its knowledge base is deleted with it. Your fans and conversations stay.',
      removed: 'Chatbot deleted',
      removeFailedTitle: 'Failed to delete chatbot',
      removeFailedDescription: 'An error occurred',
    },
    quickActions: {
      heading: 'Quick actions',
      chats: 'Chat Management',
      sendNotice: 'Send Notice',
      chatbotSettings: 'Chatbot Settings',
      toggleStatus: 'Toggle Status',
      openPwa: 'Open PWA Chat',
      opensInNewTab: '(opens in a new tab)',
    },
    knowledge: {
      heading: 'Knowledge Base',
      add: 'Add Knowledge',
      empty: 'No knowledge sources added yet',
    },
    activity: {
      heading: 'Recent Activity',
      empty: 'No recent activity',
      fanLine: (name: string, message: string) => `${name}: ${message}`,
      aiResponse: 'AI Coach response',
      creatorResponse: 'Creator response',
    },
    credits: (n: number) => `${count(n, 'credit', 'credits')} remaining`,
    aiAnswersOfBudget: (n: number, budget: number) =>
      `${number(n)} of ${count(budget, 'AI answer', 'AI answers')} today`,
    budgetReached: 'Daily AI budget reached',
    budgetReachedDetail: (budget: number) =>
      `Your AI has given today's ${count(budget, 'answer', 'answers')}. Until midnight UTC, new questions wait for you to answer them. To let the AI answer more, raise the daily budget in Chatbot Settings.`,
  },

  profile: {
    heading: 'Profile Settings',
    lead: 'Your public profile and the links to your dashboard and fan chat.',
    imageHeading: 'Profile image',
    imageAlt: (name: string) => `Profile image of ${name}`,
    imageHint: 'Square image, minimum 200x200 pixels',
    changeImage: 'Change image',
    uploading: 'Uploading…',
    accountHeading: 'Account',
    name: 'Name',
    nameNote: 'Contact support to change your name',
    username: 'Username',
    usernameNote: 'Username cannot be changed',
    linksHeading: 'Your links',
    dashboardUrl: 'Dashboard',
    pwaUrl: 'Fan chat (PWA)',
    pwaNote: 'Fans open this address on their phone and can install it as an app.',
    extensionNote: 'Fans can also reach your chat through the Fanpilot browser extension.',
    extensionHowTo:
      'Fans install the Fanpilot extension from their browser’s extension store, then press "Add to browser" in your fan chat, or type your username in the extension’s side panel.',
    descriptionHeading: 'About you',
    descriptionLabel: 'Description',
    descriptionNote: (n: number, max: number) =>
      `Fans read this under your name in the fan chat. ${n}/${max} characters`,
    descriptionSave: 'Save description',
    descriptionSaving: 'Saving…',
    descriptionSaved: 'Description saved',
    descriptionFailed: 'Failed to save the description',
    descriptionFailedFallback: 'An error occurred',
  },

  time: {
    justNow: 'Just now',
    minutesAgo: (n: number) => `${n}m ago`,
    hoursAgo: (n: number) => `${n}h ago`,
    daysAgo: (n: number) => `${n}d ago`,
  },

  knowledge: {
    titles: { youtube: 'YouTube Video', url: 'Web URL', unknown: 'Unknown Source' },
    types: { youtube: 'YouTube', url: 'URL', file: 'File' },
    statuses: {
      pending: 'Pending',
      processing: 'Processing',
      completed: 'Completed',
      active: 'Active',
      failed: 'Failed',
    },
    progressLabel: 'Processing progress',
    sourceReady: (title: string) => `Knowledge ready: ${title}`,
    ready: (active: number, total: number) =>
      `${active} of ${total} ${noun(total, 'source', 'sources')} ready`,
    readyAndFailed: (active: number, total: number, failed: number) =>
      `${active} of ${total} ready, ${failed} failed`,
    failedCount: (n: number) => `${n} failed`,
    resyncLabel: (title: string) => `Re-sync ${title}: fetch it again`,
    resyncStarted: 'Re-sync started. Unchanged content is kept as it is.',
    resyncFailed: 'Failed to re-sync.',
    complete: 'Complete',
    pending: (n: number) => `${n} pending`,
    listLabel: 'Knowledge sources',
    emptyText: 'No knowledge sources added yet',
    open: (title: string) => `Open ${title}`,
    delete: (title: string) => `Delete ${title}`,
    confirmDelete: 'Are you sure you want to delete this knowledge item?',
    deleted: 'Knowledge deleted',
    deleteFailed: 'Failed to delete knowledge.',
    failedFallback: 'Processing failed.',
    retry: 'Retry',
    retryLabel: (title: string) => `Retry ${title}`,
    retryStarted: 'Processing started again',
    retryFailed: 'Retry failed',
    noChatbot: 'Create a chatbot first, then add knowledge to it.',
    fansMayDownload: 'Fans may download this file',
    downloadsOn: 'Fans who are cited this file may now download it.',
    downloadsOff: 'Fans now see only the passages quoted from this file.',
    downloadsFailed: 'Could not change downloads of this file.',
  },

  addKnowledge: {
    title: 'Add Knowledge Source',
    description:
      'Your chatbot learns from web pages, YouTube videos and files. Processing runs in the background.',
    urlLabel: 'Web page URL',
    urlPlaceholder: 'https://example.com/article',
    siteHint: (max: number) =>
      `Also reads the pages of the same site it links to (or its sitemap), up to ${max} pages in all, as the site's robots.txt allows.`,
    addUrl: 'Add URL',
    youtubeLabel: 'YouTube URL',
    youtubePlaceholder: 'https://www.youtube.com/watch?v=…',
    addYoutube: 'Add Video',
    fileLabel: 'File',
    fileHint: 'PDF, TXT, DOC or DOCX, up to 10MB',
    fansSee:
      'Fans see the passages the AI quotes from your files, never the whole file — unless you allow downloads.',
    fansMayDownload: 'Fans may download this file',
    upload: 'Upload File',
    adding: 'Adding…',
    uploading: 'Uploading…',
    uploadProgress: 'Upload progress',
    urlAdded: 'URL added',
    youtubeAdded: (title: string) => `Video added: ${title}`,
    processingNote: 'Processing continues in the background.',
    urlFailed: 'URL processing failed',
    youtubeFailed: 'YouTube processing failed',
    retryHint: 'Please check the address and try again.',
    uploadStarted: 'Upload started',
    uploadFailed: 'Upload failed',
    uploadRetryHint: 'Please try again.',
    fileTooLarge: 'The file is larger than 10MB.',
    authorizationRequired: 'Authorization required',
    requestExpired: 'Request has expired',
    networkError:
      'Network error: the upload could not reach the server. Check your connection and try again.',
  },

  // Which model answers fans (the Dashboard section's chatbot card).
  answerer: {
    answeredBy: (model: string) => `Fans are answered by ${model}.`,
    noModel: 'No AI model is configured: fans get quotes from your material (the embedded answerer).',
    noModelSet: (variable: string, model: string) => `Set ${variable} on the server to answer with ${model}.`,
  },

  billing: {
    heading: 'Billing',
    lead: 'Credits pay for AI answers: one credit per answer. $1 buys 10,000 credits.',
    balanceHeading: 'Credit balance',
    balance: (n: number) => count(n, 'credit', 'credits'),
    freeGrant: (n: number) => `Free grant: ${number(n)}`,
    purchased: (n: number) => `Purchased: ${number(n)}`,
    spent: (n: number) => `Used by AI answers: ${number(n)}`,
    adjusted: (n: number) => `Adjustments: ${n > 0 ? '+' : '−'}${number(Math.abs(n))}`,
    todayOfBudget: (n: number, budget: number) =>
      `Today: ${number(n)} of ${count(budget, 'AI answer', 'AI answers')} (daily budget)`,
    buyHeading: 'Buy credits',
    buy: (credits: number, price: string) => `Buy ${count(credits, 'credit', 'credits')} for ${price}`,
    buying: 'Opening checkout…',
    buyFailed: 'The checkout could not be started.',
    testMode:
      'Test mode: no payment provider is configured, so checkout is a local test that grants credits without payment.',
    purchasesOff:
      'Buying credits is switched off on this server: no payment provider is configured. Your credits still pay for AI answers.',
    chartHeading: 'AI answers per day (last 30 days)',
    chartLabel: (date: string, n: number) => `${date}: ${count(n, 'AI answer', 'AI answers')}`,
    purchasesHeading: 'Purchases',
    noPurchases: 'No purchases yet. Your first 1,000 credits are free.',
    purchaseLine: (credits: number, price: string) => `${count(credits, 'credit', 'credits')} · ${price}`,
    paid: 'Paid',
    pending: 'Not completed',
    receipt: 'Receipt',
    paidToast: 'Payment received: your credits were added.',
    cancelledToast: 'Checkout cancelled: nothing was charged.',
    lowTitle: (n: number) => `Low on credits: ${number(n)} left`,
    lowDetail: 'The AI pauses when credits run out; questions then wait for you.',
    outTitle: 'Out of credits: the AI is paused',
    outDetail:
      'Fans are told you will answer personally. Buy credits and the questions that waited are answered in order.',
    budgetNote: (budget: number) =>
      `The AI also stops for the day after ${count(budget, 'answer', 'answers')} (your daily budget).`,
    buyCta: 'Buy credits',
  },

  newMessage: {
    title: 'New Message',
    several: (n: number) => `${count(n, 'new fan message', 'new fan messages')}`,
  },

  notFound: {
    heading: '404 Page Not Found',
    body: 'Did you forget to add the page to the router?',
    home: 'Go to the home page',
  },
} as const;
