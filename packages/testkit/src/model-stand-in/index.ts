export { startModelStandIn } from './server.ts';
export type { ModelStandIn, ModelStandInOptions } from './server.ts';
export { sampleValue } from './sample-value.ts';
export type {
  Behaviour,
  Dialect,
  RecordedImage,
  RecordedMessage,
  RecordedRequest,
  ServerKind,
  StandInStats,
  Usage,
} from './types.ts';
