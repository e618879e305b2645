export * from './report.ts';
export * from './topics.ts';
