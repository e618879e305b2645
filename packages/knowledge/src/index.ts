export * from './retrieve.ts';
