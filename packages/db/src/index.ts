export * from './connection.ts';
export * from './migrate.ts';
export * from './types.ts';
