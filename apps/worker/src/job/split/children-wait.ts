/**
 * A split bundle's job waits for its documents' extractions holding no worker slot: put back,
 * delayed, until `untilMs` (as a batch extraction waits for the provider, job/interruption.ts).
 */
export class ChildrenWait extends Error {
  constructor(readonly untilMs: number) {
    super('waiting for the bundle’s documents');
    this.name = 'ChildrenWait';
  }
}
