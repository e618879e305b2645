export * from './creators.ts';
export * from './fake-openai.ts';
export * from './fixtures.ts';
export * from './servers.ts';
