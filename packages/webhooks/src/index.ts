export * from './signing.ts';
export * from './endpoint-url.ts';
