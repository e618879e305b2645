export * from './fixtures.ts';
export * from './servers.ts';
