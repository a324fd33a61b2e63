#!/usr/bin/env node
/*
 * `xt`. An installed package runs its compiled dist/. A checkout of the repository has the
 * TypeScript sources beside this file and no build until someone runs one, so there it runs the
 * sources through tsx: `npx xt` works right after `npm ci` and never runs a stale build. The
 * `@xt/source` export condition sends imports of other workspace packages to their sources too.
 * packages/mcp/bin/xt-mcp.js starts `xt-mcp` the same way (two short files, no shared module:
 * an installed package cannot reach into the repository).
 */
import { existsSync } from 'node:fs';
import module from 'node:module';

const source = new URL('../src/bin/xt.ts', import.meta.url);
if (existsSync(source)) {
  module.registerHooks({
    resolve: (specifier, context, next) =>
      next(specifier, { ...context, conditions: [...context.conditions, '@xt/source'] }),
  });
  const { register } = await import('tsx/esm/api');
  register();
  await import(source.href);
} else {
  await import('../dist/bin/xt.js');
}
