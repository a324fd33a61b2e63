export { startModelStandIn } from './server.ts';
export type { ModelStandIn, ModelStandInOptions } from './server.ts';
export { sampleValue } from './sample-value.ts';
export type { Behaviour, RecordedImage, RecordedMessage, RecordedRequest, Usage } from './types.ts';
