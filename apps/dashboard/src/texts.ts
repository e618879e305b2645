import {
  ANNOUNCEMENT_MAX_LENGTH,
  CREDITS_PER_DOLLAR,
  FREE_CREDITS,
  type LoginErrorCode,
  PRODUCT_NAME,
  RESPONSE_RATE_PERCENT,
} from '@fanpilot/contracts';

/** Every text a person reads in the dashboard app. SPEC texts are quoted exactly. */
const number = (n: number) => n.toLocaleString('en-US');

export const TEXT = {
  productName: PRODUCT_NAME,
  common: {
    loading: 'Loading…',
    close: 'Close',
    notification: 'Notification',
    skipToContent: 'Skip to main content',
    somethingWentWrong: 'Something went wrong',
    reloadHint: 'Please reload the page. If this keeps happening, try again in a few minutes.',
    reload: 'Reload',
  },

  landing: {
    nav: { label: 'Main', howItWorks: 'How it works', pricing: 'Pricing', faq: 'FAQ', signIn: 'Sign in' },
    hero: {
      eyebrow: 'AI coaching for creators',
      title: 'Turn your content into an AI coach your fans can talk to',
      lead: `${PRODUCT_NAME} trains a chatbot on your videos, pages and files. It answers fan questions around the clock, and you step in personally whenever you like.`,
      startBuilding: 'Start Building',
      startFreeTrial: 'Start Free Trial',
      signInNote: 'Sign in with Google. The first 1,000 credits are free.',
      previewFan: 'Fan',
      previewFanMessage: 'How many rest days should I take in my first month?',
      previewAi: 'AI Coach',
      previewAiMessage:
        'In your first month, two or three rest days a week. In my beginner video I explain why recovery matters as much as training.',
      previewStatus: 'Offline - AI responding',
    },
    claims: {
      heading: 'Why creators choose Fanpilot',
      items: [
        { value: 'About 10 minutes', label: 'Set-up takes about 10 minutes' },
        { value: '$30 to $99', label: 'Subscriber prices of $30 to $99 a month' },
        { value: '15 to 25%', label: 'Conversion of 15 to 25 percent' },
      ],
    },
    how: {
      heading: 'How it works',
      lead: 'Three steps from sign-in to a chatbot your fans can use.',
      steps: [
        {
          title: 'Sign in with Google',
          body: 'Add a profile image and name your chatbot. No forms to wade through.',
        },
        {
          title: 'Teach it your content',
          body: 'Add web pages, files and YouTube videos. Your chatbot answers from what you have made.',
        },
        {
          title: 'Share your chat link',
          body: 'Fans chat from their phone or install your chat as an app. No login needed for fans.',
        },
      ],
    },
    features: {
      heading: 'Everything you need to coach at scale',
      items: [
        {
          title: 'Answer personally, or let the AI',
          body: 'Switch your status Online to answer fans yourself. While you are Offline, the AI answers for you.',
        },
        {
          title: 'One inbox for every fan',
          body: 'See who is waiting, read whole conversations and reply or message a fan directly.',
        },
        {
          title: 'Announcements to all fans',
          body: 'Send a notice to every fan at once and keep a history of what you sent.',
        },
        {
          title: 'A knowledge base you control',
          body: 'Add or remove sources at any time and watch processing progress as they become ready.',
        },
      ],
    },
    pricing: {
      heading: 'Simple, pay-as-you-go pricing',
      lead: 'Pay only for what your fans use.',
      planName: 'Credits',
      price: '$1',
      priceUnit: `per ${number(CREDITS_PER_DOLLAR)} credits`,
      points: [
        'One credit per fan-to-AI interaction',
        `The first ${number(FREE_CREDITS)} credits are free`,
        'No monthly lock-ins',
      ],
      cta: 'Start Free Trial',
    },
    faq: {
      heading: 'Frequently asked questions',
      items: [
        {
          question: 'What is a credit?',
          answer: `One credit is used each time a fan talks to your AI: one fan-to-AI interaction. $1 buys ${number(CREDITS_PER_DOLLAR)} credits.`,
        },
        {
          question: 'Is there a free trial?',
          answer: `Yes. The first ${number(FREE_CREDITS)} credits are free, so you can try ${PRODUCT_NAME} with real fans before you pay anything.`,
        },
        {
          question: 'Do I have to commit to a monthly plan?',
          answer: 'No. There are no monthly lock-ins; you buy credits when you need them.',
        },
        {
          question: 'How long does set-up take?',
          answer:
            'About 10 minutes. Sign in with Google, add a profile image, name your chatbot, then add your content.',
        },
        {
          question: 'Do my fans need an account?',
          answer:
            'No. Fans chat on a mobile page or install your chat as an app from your own link, without signing in.',
        },
        {
          question: 'Can I still answer fans myself?',
          answer:
            'Yes. While you are Online, fan messages wait for you; switch to Offline and the AI answers instead.',
        },
      ],
    },
    finalCta: {
      heading: 'Ready to meet your fans around the clock?',
      lead: 'Set-up takes about 10 minutes.',
    },
    footer: `© ${new Date().getFullYear()} ${PRODUCT_NAME}`,
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

  auth: {
    requiredTitle: 'Authentication Required',
    requiredDescription: 'Please sign in to continue with chatbot creation.',
  },

  signup: {
    heading: 'Set up your AI chatbot',
    lead: 'Add a profile image and name your chatbot. You can add knowledge and fine-tune it from your dashboard.',
    imageLabel: 'Profile image',
    imageHint: 'Square image, minimum 200x200 pixels',
    imagePreviewAlt: 'Preview of your profile image',
    uploading: 'Uploading image…',
    uploaded: 'Image uploaded',
    nameLabel: 'Chatbot name',
    namePlaceholder: 'e.g. Coach Mina',
    descriptionLabel: 'Description',
    optional: '(optional)',
    descriptionPlaceholder: 'What should fans know about your chatbot?',
    submit: 'Create my chatbot',
    submitting: 'Creating…',
    errors: {
      imageRequired: 'Please upload a profile image',
      imageTooLarge: 'The image is larger than 10 MB. Please choose a smaller one.',
      notAnImage: 'Please choose an image file.',
      nameRequired: 'Please enter a chatbot name',
    },
    welcomeTitle: `Welcome to ${PRODUCT_NAME}!`,
    welcomeDescription: 'Your AI chatbot is ready. Taking you to your dashboard…',
    accountCreatedTitle: 'Account Created Successfully!',
    accountCreatedDescription: 'Your chatbot will be created in the dashboard due to plan limits.',
    failedTitle: 'Signup Failed',
    failedFallback: 'Please try again later',
  },

  upload: {
    failedTitle: 'Upload Failed',
    failedDescription: 'Failed to upload image. Please try again.',
    invalidUrl: 'Invalid upload URL format',
    profileUpdated: 'Profile image updated',
    profileUpdateFailedTitle: 'Upload failed',
    profileUpdateFailedDescription: 'Failed to update profile image. Please try again.',
    dashboardTooLarge: 'The image is larger than 5 MB. Please choose a smaller one.',
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
      chats: 'Chat Management',
      announcements: 'Announcements',
      profile: 'Profile Settings',
    },
  },

  status: {
    label: 'Response Status',
    changed: 'Status changed successfully.',
    changeFailed: 'Failed to change status.',
  },

  dashboard: {
    welcome: (name: string) => `Welcome back, ${name}`,
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
      activeDetail: (name: string) => `${name} answers your fans while you are Offline.`,
      none: 'No chatbot yet',
      noneDetail: 'Create a chatbot so the AI can answer your fans while you are Offline.',
      create: 'Create Chatbot',
      unavailable: 'The chatbot status cannot be read right now.',
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
    },
  },

  chats: {
    heading: 'Chat Management',
    lead: 'Read fan messages and answer them personally.',
    filterLabel: 'Show',
    filters: { all: 'All conversations', unread: 'Unread', answered: 'Answered' },
    fanCount: (n: number) => `${n} ${n === 1 ? 'fan' : 'fans'}`,
    waiting: (messages: number, fans: number) => `${messages} messages waiting from ${fans} fans`,
    sorted: 'Sorted by recent activity',
    empty: 'No fan conversations yet.',
    summary: 'Fan summary',
    totalFans: 'Total fans',
    unanswered: 'Unanswered chats',
    activeToday: 'Active fans today',
  },

  announcements: {
    heading: 'Announcements',
    lead: 'Send a notice to all of your fans at once.',
    composerLabel: 'New announcement',
    placeholder: 'Write a message to all your fans…',
    counter: (n: number) => `${n}/${ANNOUNCEMENT_MAX_LENGTH} characters`,
    keyHint: 'Enter sends; Shift+Enter adds a new line.',
    send: 'Send Notice',
    sending: 'Sending…',
    sent: 'Notice sent successfully.',
    sendFailed: 'Failed to send notice.',
    historyHeading: 'Announcement history',
    historyEmpty: 'No announcement history',
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
  },

  notFound: {
    heading: '404 Page Not Found',
    body: 'Did you forget to add the page to the router?',
    home: 'Go to the home page',
  },
} as const;
