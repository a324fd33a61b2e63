/**
 * `npm run screenshots:readme`
 *
 * Retakes the README's dashboard pictures from a real run instead of by hand: the upload and
 * review browser tests (real API, worker, PostgreSQL, Redis and Chromium; the model stand-in
 * scripted with an invoice's values) write them to .artifacts/dashboard/readme/, and this copies
 * them to docs/images/. Finds PostgreSQL and Redis as `npm test` does.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const TESTS = ['tests/browser/upload.browser.test.ts', 'tests/browser/review.browser.test.ts'];
const FROM = join(ROOT, '.artifacts', 'dashboard', 'readme');
const PICTURES = ['dashboard-keys.png', 'dashboard-extraction.png', 'dashboard-review.png'];

// A failed run must not leave an older picture behind to be copied.
rmSync(FROM, { recursive: true, force: true });
const run = spawnSync('npx', ['vitest', 'run', ...TESTS], { cwd: ROOT, stdio: 'inherit' });
if (run.status !== 0) {
  console.error(`${TESTS.join(' or ')} failed; docs/images/ left as it was.`);
  process.exit(run.status ?? 1);
}
for (const name of PICTURES) {
  copyFileSync(join(FROM, name), join(ROOT, 'docs', 'images', name));
  console.log(`docs/images/${name}`);
}
