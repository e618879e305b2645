// A fan's conversation with a creator: one use case per file, each taking its ports (db, storage,
// clock) and refusing with a DomainError. The api's routes map input and errors to them, nothing else.
export * from './answer-as-creator.ts';
export * from './ask.ts';
export * from './check-attachment.ts';
export * from './claim-fan.ts';
export * from './delete-conversation.ts';
export * from './fan-access.ts';
export * from './fan-name.ts';
export * from './hand-over-to-creator.ts';
export * from './make-transfer-link.ts';
export * from './move-to-another-browser.ts';
export * from './ports.ts';
export * from './read-chatlog.ts';
export * from './reply-drafts.ts';
export * from './reply-to-question.ts';
export * from './send-to-fan.ts';
export * from './store-ai-answer.ts';
