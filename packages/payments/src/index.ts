export * from './facts.ts';
export * from './stripe.ts';
