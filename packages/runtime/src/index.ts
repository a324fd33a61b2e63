export * from './env.ts';
export * from './logger.ts';
export * from './main.ts';
export * from './outage.ts';
export * from './chromium.ts';
export * from './scrub.ts';
export * from './network-errors.ts';
