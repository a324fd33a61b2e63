/*
 * The extraction's lifecycle, whichever process drives it: the enqueue (API and reconciler),
 * the worker's transitions (claim, complete, fail, release), and the reconciler that gives
 * rows left without a job a new one. Apps call these; none of them writes an extraction's
 * status on its own.
 */
export * from './enqueue.ts';
export * from './transitions.ts';
export * from './reconcile.ts';
