export * from './redis.ts';
export * from './catalogue.ts';
export * from './completion.ts';
export * from './backoff.ts';
export * from './unavailable.ts';
export * from './job-failure.ts';
