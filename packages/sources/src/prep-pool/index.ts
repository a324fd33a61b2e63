export { createPrepPool, type PrepPool, type PrepPoolOptions, type RunOptions } from './pool.ts';
export type { ImageTask, PdfTask, PrepTask } from './tasks.ts';
