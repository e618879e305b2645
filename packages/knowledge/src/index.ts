export * from './answer/index.ts';
export * from './retrieve.ts';
