export * from './citations.ts';
export * from './handler.ts';
export * from './models.ts';
export * from './offline.ts';
export * from './prompt.ts';
export * from './recover.ts';
export * from './retry.ts';
