export * from './earnings.ts';
export * from './fan-state.ts';
export * from './restore.ts';
export * from './restore-limits.ts';
export * from './settings.ts';
export * from './stripe-facts.ts';
export * from './subscribe.ts';
export * from './use-cases.ts';
