export * from './key-material.ts';
export * from './keys.ts';
