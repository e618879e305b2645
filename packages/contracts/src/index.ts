export * from './chatbot.ts';
export * from './constants.ts';
export * from './creator.ts';
export * from './errors.ts';
export * from './jobs.ts';
export * from './messages.ts';
export * from './pwa.ts';
export * from './status.ts';
