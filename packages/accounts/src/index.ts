export * from './key-material.ts';
export * from './keys.ts';
export * from './passwords.ts';
export * from './sessions.ts';
export * from './users.ts';
export * from './key-cache.ts';
