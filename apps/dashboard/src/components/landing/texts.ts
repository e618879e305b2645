import { CREDITS_PER_DOLLAR, FREE_CREDITS, PRODUCT_NAME } from '@fanpilot/contracts';

/**
 * The landing page's words (docs/product.md#exact-texts), apart from texts.ts so that they load with
 * the landing page's own chunk and no signed-in page loads them (issue 39).
 */
const number = (n: number) => n.toLocaleString('en-US');

export const LANDING_TEXT = {
  nav: { label: 'Main', howItWorks: 'How it works', pricing: 'Pricing', faq: 'FAQ', signIn: 'Sign in' },
  hero: {
    eyebrow: 'AI coaching for creators',
    title: 'Turn your content into an AI coach your fans can talk to',
    lead: `${PRODUCT_NAME} trains a chatbot on your videos, pages and files. It answers fan questions around the clock, and you step in personally whenever you like.`,
    startBuilding: 'Start Building',
    startFreeTrial: 'Start Free Trial',
    signInNote: 'Sign in with Google and start free, no card needed.',
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
    // The specified two labels belong to the hero; a second button with either name would make it ambiguous.
    cta: 'Try it free',
  },
  // The specified landing claims and pricing points each appear once on the page (claims, pricing); the
  // FAQ and the other sections word them differently so a lookup by the specified words finds one element.
  faq: {
    heading: 'Frequently asked questions',
    items: [
      {
        question: 'What is a credit?',
        answer: `One credit is used each time a fan talks to your AI: one fan-to-AI interaction. $1 buys ${number(CREDITS_PER_DOLLAR)} credits.`,
      },
      {
        question: 'Is there a free trial?',
        answer: `Yes. You start with ${number(FREE_CREDITS)} free credits, so you can try ${PRODUCT_NAME} with real fans before you pay anything.`,
      },
      {
        question: 'Do I have to commit to a monthly plan?',
        answer: 'No. You buy credits when you need them; there is no plan to cancel.',
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
    lead: 'Be live for your fans today.',
    cta: 'Get started',
  },
  footer: `© ${new Date().getFullYear()} ${PRODUCT_NAME}`,
};
