/**
 * The stack most end-to-end files need, as vitest fixtures: the model stand-in, the API on a
 * database cloned from the template with its own queue prefix, and one worker process on both.
 * Each is started once per file, the first time a test or a `test.beforeAll` asks for it, and
 * stopped after the file's last test in the reverse order (worker, API and its database, model),
 * whether the tests passed or not.
 *
 *   const test = stackTest({ api: { EXTRACTION_WAIT_SECONDS: '20' } });
 *   test('…', async ({ api, model }) => { … });
 */
import { test as base } from 'vitest';
import { startModelStandIn, type ModelStandInOptions } from '@xt/testkit';
import {
  checkResponsesAgainstOpenApi,
  startTestApi,
  startTestWorker,
  type TestApi,
} from '@xt/api/testing';

export interface StackOptions {
  /** How the model stand-in answers by default (see `startModelStandIn`). */
  model?: ModelStandInOptions;
  /** Settings for the API on top of the test defaults (see `startTestApi`). */
  api?: Record<string, string>;
  /** Settings for the worker; `false` when the file starts its own (then `worker` is not there). */
  worker?: Record<string, string> | false;
  /** Check every answer against the OpenAPI document (default true). */
  openApi?: boolean;
}

export function stackTest(options: StackOptions = {}) {
  if (options.openApi !== false) checkResponsesAgainstOpenApi();
  // vitest reads which fixtures each one needs from its first parameter, so the two without
  // dependencies destructure nothing.
  /* eslint-disable no-empty-pattern */
  return base
    .extend('model', { scope: 'file' }, async ({}, { onCleanup }) => {
      const model = await startModelStandIn(options.model);
      onCleanup(() => model.close());
      return model;
    })
    .extend('api', { scope: 'file' }, async ({}, { onCleanup }): Promise<TestApi> => {
      const api = await startTestApi(options.api);
      onCleanup(() => api.close());
      return api;
    })
    .extend(
      'worker',
      // Started for every file even when no test names it: the worker is why the stack exists.
      { scope: 'file', auto: options.worker !== false },
      async ({ api, model }, { onCleanup }) => {
        if (options.worker === false)
          throw new Error('this file starts its own workers (stackTest({ worker: false }))');
        const worker = await startTestWorker(api, model.url, options.worker);
        onCleanup(async () => void (await worker.stop()));
        return worker;
      },
    );
}
