/**
 * Where the CPU time goes in `.cpuprofile` files (from `npm run bench -- --profile DIR`, which
 * runs the service's processes with `node --cpu-prof`):
 *
 *   npx tsx scripts/bench/profile-summary.ts DIR [--top 25] [--skip SECONDS] [--until SECONDS]
 *
 * Prints, per profile, self time grouped by area (a package under node_modules, a workspace
 * package or app, Node's internals, garbage collection, idle), the heaviest functions, and
 * the same time charged to the innermost package or project module on each sample's stack
 * (past Node's internals): self time alone hides whether a socket write was pg's, ioredis's
 * or an HTTP answer.
 * `--skip` and `--until` keep the samples of one window (one section of a run).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

interface Node {
  id: number;
  parent?: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    top: { type: 'string', default: '25' },
    // Leave out start-up (loading modules through tsx): samples in the first N seconds.
    skip: { type: 'string', default: '0' },
    until: { type: 'string', default: 'Infinity' },
  },
});
const dir = positionals[0];
if (!dir)
  throw new Error('usage: profile-summary.ts DIR [--top N] [--skip SECONDS] [--until SECONDS]');

function areaOf(url: string, name: string): string {
  if (name === '(garbage collector)') return 'GC';
  if (name === '(idle)' || name === '(program)') return name;
  if (!url) return 'native / V8';
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return nm[1]!;
  const ws = /\/(apps|packages)\/([^/]+)\/src\/(.*)$/.exec(url);
  if (ws) return `${ws[1]}/${ws[2]}/${ws[3]!.split('/')[0]}`;
  if (url.startsWith('node:internal/')) return url.split('/').slice(0, 3).join('/');
  if (url.startsWith('node:')) return url;
  return url;
}

for (const file of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  for (const n of profile.nodes) for (const c of n.children ?? []) byId.get(c)!.parent = n.id;
  const self = new Map<number, number>();
  let at = 0;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (at < Number(values.skip) * 1e6 || at >= Number(values.until) * 1e6) return;
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const busy = [...self.entries()]
    .filter(([id]) => byId.get(id)?.callFrame.functionName !== '(idle)')
    .reduce((a, [, us]) => a + us, 0);
  const areas = new Map<string, number>();
  const functions = new Map<string, number>();
  const owners = new Map<string, number>();
  for (const [id, us] of self) {
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName === '(idle)') continue;
    const area = areaOf(frame.url, frame.functionName);
    areas.set(area, (areas.get(area) ?? 0) + us);
    const fn = `${frame.functionName || '(anonymous)'} ${area}:${frame.lineNumber + 1}`;
    functions.set(fn, (functions.get(fn) ?? 0) + us);
    const owner = ownerOf(byId, id);
    const name = owner ? areaOf(owner.callFrame.url, owner.callFrame.functionName) : area;
    owners.set(name, (owners.get(name) ?? 0) + us);
  }
  const pct = (us: number) => `${((100 * us) / busy).toFixed(1).padStart(5)} %`;
  console.log(
    `\n${file}: ${(total / 1e6).toFixed(1)} s profiled, ${(busy / 1e6).toFixed(1)} s busy`,
  );
  console.log('  by area (self time, share of busy time)');
  for (const [area, us] of [...areas].sort((a, b) => b[1] - a[1]).slice(0, 20)) {
    console.log(`    ${pct(us)}  ${area}`);
  }
  console.log('  heaviest functions');
  for (const [fn, us] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))) {
    console.log(`    ${pct(us)}  ${fn}`);
  }
  console.log('  by calling package or module (innermost on the stack past Node internals)');
  for (const [fn, us] of [...owners].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))) {
    console.log(`    ${pct(us)}  ${fn}`);
  }
}

/** The nearest frame at or above `id` from a package or the project (not V8 or Node itself). */
function ownerOf(byId: Map<number, Node>, id: number): Node | undefined {
  for (let n = byId.get(id); n; n = n.parent === undefined ? undefined : byId.get(n.parent)) {
    const url = n.callFrame.url;
    if (url && !url.startsWith('node:')) return n;
  }
  return undefined;
}
