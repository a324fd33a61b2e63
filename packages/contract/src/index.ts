export * from './failure-codes.ts';
export * from './states.ts';
export * from './content.ts';
export * from './structure-types.ts';
export * from './errors.ts';
