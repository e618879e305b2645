// What a fan reads about the creator's plan (record 0043).
const dollars = (cents: number) => `$${(cents / 100).toFixed(cents % 100 === 0 ? 0 : 2)}`;

export const planTexts = {
  freeLeft: (n: number) => (n === 1 ? '1 free answer left this month' : `${n} free answers left this month`),
  cardHeading: (name: string) => `Keep chatting with ${name}`,
  cardLead: (name: string, free: number) =>
    `You have used your ${free} free AI answers this month. Subscribe for unlimited answers, or wait for ${name} to reply personally.`,
  monthly: (cents: number) => `${dollars(cents)} / month`,
  yearly: (cents: number) => `${dollars(cents)} / year`,
  trial: (days: number) => `${days}-day free trial`,
  subscribe: 'Subscribe',
  subscribeYearly: 'Subscribe yearly',
  opening: 'Opening checkout…',
  emailFirst: 'Your email, to continue',
  emailPlaceholder: 'you@example.com',
  continue: 'Continue',
  restoreQuestion: 'Already subscribed on another device?',
  restoreAction: 'Send me a link',
  unlocking: 'Unlocking your chat…',
  unlocked: 'You are subscribed. Ask away!',
  subscribed: 'Subscribed',
  manage: 'Manage subscription',
  endsOn: (date: string) => `Your subscription ends on ${date}.`,
  pastDue: (date: string) =>
    `Your last payment failed. You keep access until ${date} while your card is retried: update it in Manage subscription.`,
  restoring: 'Restoring your subscription…',
  restoreFailedHeading: 'This link did not work',
  restoreFailedText: 'Ask for a new link from the chat.',
  continueHere: 'Continue to the chat',
  somethingFailed: 'Something went wrong. Please try again.',
};

export const shortDate = (iso: string) =>
  new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' });
