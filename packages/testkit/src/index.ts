// @fanpilot/testkit: what tests and benchmarks stand on, kept out of every production build
// (tests/deploy/src/testkit.test.ts checks the dist/ folders): a throwaway database, seeders that
// write through @fanpilot/core, fault injection on a Kysely handle, a fake OpenAI, loopback sites and
// generated documents.

export * from './coffee-paraphrases.ts';
export * from './database.ts';
export * from './fake-openai.ts';
export * from './faults.ts';
export * from './fixtures.ts';
export * from './guitar-paraphrases.ts';
export * from './lookalikes.ts';
export * from './push-service.ts';
export * from './running-paraphrases.ts';
export * from './seed.ts';
export * from './servers.ts';
export * from './smtp.ts';
export * from './sourdough-passages.ts';
export * from './stripe.ts';
