/**
 * `tsx scripts/system-packages.ts <start|test|ci>`: installs (or names the
 * command that installs) the Debian packages that purpose needs. `.ci/run` uses it, so CI reads
 * the same list as `npm start` and `npm test`.
 */
import { ensureSystemPackages, SystemPackagesMissing, type Purpose } from '@xt/embedded';

const purposes: readonly Purpose[] = ['start', 'test', 'ci'];
const purpose = purposes.find((p) => p === process.argv[2]);
if (purpose === undefined) {
  console.error(`usage: system-packages <${purposes.join('|')}>`);
  process.exit(2);
}
try {
  await ensureSystemPackages({
    purpose,
    env: process.env,
    log: (line) => console.log(`[system-packages] ${line}`),
  });
} catch (error) {
  if (!(error instanceof SystemPackagesMissing)) throw error;
  console.error(`[system-packages] ${error.message}`);
  process.exit(1);
}
