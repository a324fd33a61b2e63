import type { SourceType } from '@xt/contract';
import { SOURCE_STAGES } from '@xt/sources';

/**
 * The stages of a job whose durations are measured (docs/observability.md): the source's own
 * (`fetch`, `render`, `convert`, `rasterise`, see @xt/sources) and then
 * - `model`: the model calls, repairs and chunks included;
 * - `store`: recording the outcome in PostgreSQL.
 */
export const STAGES = [...SOURCE_STAGES, 'model', 'store'] as const;
export type Stage = (typeof STAGES)[number];

/** Runs `work` and records how long it took under `stage`, whether it succeeded or not. */
export type StageTimer = <T>(stage: Stage, type: SourceType, work: () => Promise<T>) => Promise<T>;

/** For code built without metrics (tests of one part): runs the work, records nothing. */
export const untimed: StageTimer = (_stage, _type, work) => work();
