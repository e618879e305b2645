// The loopback Stripe lives in the test kit (the e2e tests use it too).
export { type StripeCall, type StripeService, startStripeService } from '@fanpilot/testkit';
