export * from './harness/index.ts';
export * from './model-stand-in/index.ts';
