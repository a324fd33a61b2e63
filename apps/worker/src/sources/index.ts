import {
  ExtractionFailure,
  type PreparedSource,
  type PublicModel,
  type SourceType,
} from '@xt/contract';
import { prepareText } from './text.ts';

export interface SourcePreparer {
  prepare(
    type: SourceType,
    source: string,
    opts: { model: PublicModel; signal: AbortSignal },
  ): Promise<PreparedSource>;
  close(): Promise<void>;
}

export interface SourceHandlers {
  pdf?: (url: string, opts: { model: PublicModel; signal: AbortSignal }) => Promise<PreparedSource>;
  image?: (
    url: string,
    opts: { model: PublicModel; signal: AbortSignal },
  ) => Promise<PreparedSource>;
  webpage?: (
    url: string,
    opts: { model: PublicModel; signal: AbortSignal },
  ) => Promise<PreparedSource>;
  close?: () => Promise<void>;
}

/** Turns any submitted source into the parts the model layer takes. */
export function createSourcePreparer(handlers: SourceHandlers): SourcePreparer {
  return {
    async prepare(type, source, opts) {
      if (type === 'text') return prepareText(source);
      const handler = handlers[type];
      if (!handler)
        throw new ExtractionFailure(
          'SOURCE_UNSUPPORTED',
          `Sources of type ${type} are not enabled on this worker.`,
        );
      return handler(source, opts);
    },
    async close() {
      await handlers.close?.();
    },
  };
}
