export * from './creator-push.ts';
export * from './digest.ts';
export * from './local-time.ts';
export * from './note-alert.ts';
export * from './send-alerts.ts';
export * from './settings.ts';
export * from './unsubscribe.ts';
export * from './waiting.ts';
