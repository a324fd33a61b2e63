import type { PreparedSource } from '@xt/contract';

/** What one render hands back: the parts for the model plus what the worker records and logs. */
export type RenderedWebpage = PreparedSource & {
  finalUrl: string;
  title: string;
  htmlBytes: number;
  markdownChars: number;
};
