// @fanpilot/core: every rule of the product about its data, and the only code that writes a table
// (packages/core/src/ownership.test.ts enforces it). Framework-free: each function takes the Kysely
// handle or transaction it works in; refusals are DomainErrors, which the api maps to HTTP.

export * from './alerts/index.ts';
export * from './answer-context.ts';
export * from './answer-policy.ts';
export * from './attachments.ts';
export * from './billing.ts';
export * from './change-versions.ts';
export * from './chatbots.ts';
export * from './citations.ts';
export * from './conversations/index.ts';
export * from './correction-fans.ts';
export * from './corrections.ts';
export * from './creators.ts';
export * from './credits.ts';
export * from './db.ts';
export * from './entitlement.ts';
export * from './errors.ts';
export * from './fan-plans/index.ts';
export * from './fan-transfers.ts';
export * from './fans.ts';
export * from './inbox.ts';
export * from './knowledge.ts';
export * from './knowledge-chunks.ts';
export * from './knowledge-gaps.ts';
export * from './knowledge-runs.ts';
export * from './knowledge-uploads.ts';
export * from './mail-outbox.ts';
export * from './messages.ts';
export * from './notices.ts';
export * from './onboarding.ts';
export * from './ownership.ts';
export * from './payment-events.ts';
export * from './push-outbox.ts';
export * from './push-outbox.ts';
export * from './push-subscriptions.ts';
export * from './push-targets.ts';
export * from './ratings.ts';
export * from './rights.ts';
export * from './sessions.ts';
export * from './status.ts';
export * from './templates.ts';
export * from './tokens.ts';
export * from './usernames.ts';
export * from './vector-index.ts';
export * from './widget.ts';
