export * from './redis.ts';
export * from './catalogue.ts';
export * from './completion.ts';
