export { XtClient } from './client.ts';
export type {
  ClientOptions,
  CompletedExtraction,
  CreateExtractionOptions,
  CreateOptions,
  CreatedExtraction,
  ExtractOptions,
  SuggestSchemaParams,
} from './client-options.ts';
export type { CreateExtractionParams, ExtractionParamsBase } from './create-params.ts';
export type { SplitDocumentRecord, SplitOutcome, SplitParams } from './split.ts';
export type { CallOptions, TransportOptions } from './transport.ts';
export type { PollOptions } from './poll.ts';
export type { Upload } from './uploads.ts';
export {
  ApiError,
  ExtractionFailedError,
  NetworkError,
  WebhookVerificationError,
  XtError,
  fieldProblem,
  type ErrorEnvelope,
} from './errors.ts';
export {
  verifyWebhook,
  type VerifyWebhookOptions,
  type WebhookHeaders,
} from './webhook-signature.ts';
export type * from './types.ts';
export type * from './bundle-types.ts';
export type * from './webhook-types.ts';
export type * from './review-types.ts';
export type * from './suggest-types.ts';
export {
  SOURCE_TYPES,
  SPLIT_TYPES,
  sourceTypeFor,
  splitTypeFor,
  type SplitSourceType,
} from './source-type.ts';
export {
  connectionEnv,
  resolveConnection,
  type Connection,
  type ConnectionEnv,
} from './cli/config.ts';
// For xt-mcp, which shares the command line's rules about hosts and local files.
export { isLoopbackHost } from './loopback.ts';
export { fileInside, type FileInside } from './file-inside.ts';
