#!/usr/bin/env node
import { connectionEnv } from '../cli/config.ts';
import { runCli } from '../cli/run.ts';

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  cwd: process.cwd(),
  env: connectionEnv(),
});
