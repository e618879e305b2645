export * from '../answer/fake-openai.ts';
export * from './creators.ts';
export * from './fixtures.ts';
export * from './servers.ts';
