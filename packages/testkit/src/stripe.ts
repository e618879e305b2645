// The loopback Stripe is a package of its own: `pnpm start` without STRIPE_SECRET_KEY runs it as the
// embedded default for fans' subscriptions (record 0044), and the tests run the same server.
export {
  type SignedEvent,
  type StripeCall,
  type StripeService,
  startStripeService,
} from '@fanpilot/local-stripe';
