/**
 * `npx tsx scripts/bench/cpu-spread.ts [--shapes 1x1,2x2] [--seconds 20] [--clients 50]`
 *
 * Whether anything serialises: for each shape (API processes × worker processes, behind
 * HAProxy), asynchronous text extractions from closed-loop clients for --seconds, then until
 * every accepted one is final, with every process's CPU time (user + system, from
 * /proc/<pid>/stat) read each second. Prints per process its CPU seconds, its average share of
 * one core and its busiest second, and beside them the machine's own busy share of all cores
 * (/proc/stat, other people's work included). One process or server near 100% of a core while
 * the machine has cores to spare would be a bottleneck that more processes cannot lift; spread
 * work with the machine's cores full means throughput follows cores. Figures, never a verdict.
 */
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { BenchStack } from './lib/bench-stack.ts';
import { closedLoop, forMs } from './lib/client.ts';
import { cpuMs, processTree } from './lib/proc.ts';

const { values } = parseArgs({
  options: {
    shapes: { type: 'string', default: '1x1,2x2' },
    seconds: { type: 'string', default: '20' },
    clients: { type: 'string', default: '50' },
  },
});
const shapes = values.shapes.split(',').map((s) => s.split('x').map(Number) as [number, number]);
const started = performance.now();
const log = (line: string) =>
  console.log(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);

/** Busy and total jiffies of the whole machine, every core and every user. */
function machineTicks(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1);
  const n = fields.map(Number);
  const idle = (n[3] ?? 0) + (n[4] ?? 0);
  const total = n.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
  } catch {
    return '';
  }
}

interface Tracked {
  label: string;
  kind: string;
  first: number;
  last: number;
  lastAt: number;
  /** The highest CPU ms per wall ms between two samples: 1 is one core saturated. */
  busiest: number;
}

const stack = new BenchStack({ servers: 'own', modelMs: 1000, workerConcurrency: 1000, log });
const tables: string[] = [];
try {
  await stack.start();
  while (stack.apis.length < Math.max(...shapes.map(([a]) => a))) await stack.addApi();
  for (const [apis, workers] of shapes) {
    while (stack.workers.length < workers) await stack.addWorker();
    while (stack.workers.length > workers) await stack.removeWorker();
    const target = await stack.balance(apis);
    log(`${apis} API × ${workers} worker: warming up`);
    await Promise.all(Array.from({ length: 50 }, (_, n) => target.create(n, { async: true })));
    await sleep(3000);

    // Each API and worker with its children; PostgreSQL's processes one by one (a backend per
    // pooled connection, plus its own background processes); Redis; HAProxy; this process.
    const groups = async (): Promise<
      Map<number, { label: string; kind: string; pids: number[] }>
    > => {
      const out = new Map<number, { label: string; kind: string; pids: number[] }>();
      stack.apis
        .slice(0, apis)
        .forEach((p, i) =>
          out.set(p.pid, { label: `API ${i + 1}`, kind: 'API', pids: processTree([p.pid]) }),
        );
      stack.workers.forEach((p, i) =>
        out.set(p.pid, { label: `worker ${i + 1}`, kind: 'worker', pids: processTree([p.pid]) }),
      );
      const others: number[] = [];
      for (const pid of await stack.servers.postgresPids([stack.serviceDbName])) {
        const title = cmdline(pid);
        // The bare pipeline's database idles here: its sessions are not this measurement's.
        if (title.includes(stack.bareDbName)) continue;
        if (title.includes(stack.serviceDbName))
          out.set(pid, { label: `PostgreSQL backend ${pid}`, kind: 'backend', pids: [pid] });
        else others.push(pid);
      }
      out.set(-1, {
        label: 'PostgreSQL postmaster, WAL writer, checkpointer, autovacuum, I/O',
        kind: 'PostgreSQL',
        pids: others,
      });
      out.set(stack.servers.redisPid, {
        label: 'Redis',
        kind: 'Redis',
        pids: [stack.servers.redisPid],
      });
      if (stack.haproxy)
        out.set(stack.haproxy.pid, {
          label: 'HAProxy',
          kind: 'HAProxy',
          pids: [stack.haproxy.pid],
        });
      out.set(process.pid, {
        label: 'load generator (this script)',
        kind: 'load',
        pids: [process.pid],
      });
      return out;
    };

    const tracked = new Map<number, Tracked>();
    let machineBusiest = 0;
    let machineLast = machineTicks();
    const sample = async () => {
      const machine = machineTicks();
      if (machine.total > machineLast.total)
        machineBusiest = Math.max(
          machineBusiest,
          (machine.busy - machineLast.busy) / (machine.total - machineLast.total),
        );
      machineLast = machine;
      for (const [root, g] of await groups()) {
        const ms = cpuMs(g.pids);
        const at = performance.now();
        const t = tracked.get(root);
        if (!t) tracked.set(root, { ...g, first: ms, last: ms, lastAt: at, busiest: 0 });
        else {
          t.busiest = Math.max(t.busiest, (ms - t.last) / (at - t.lastAt));
          t.last = ms;
          t.lastAt = at;
        }
      }
    };
    const before = await target.finished();
    await sample();
    machineBusiest = 0;
    const machineStart = machineTicks();
    const t0 = performance.now();
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        await sleep(1000);
        await sample();
      }
    })();
    log(
      `${apis} API × ${workers} worker: ${values.seconds} s of creates from ${values.clients} clients`,
    );
    const answers = await closedLoop(
      Number(values.clients),
      forMs(Number(values.seconds) * 1000),
      (n) => target.create(n, { async: true }),
    );
    const accepted = answers.filter((a) => a.status === 202).length;
    let now = await target.finished();
    while (now.done - before.done < accepted && performance.now() - t0 < 180_000) {
      await sleep(200);
      now = await target.finished();
    }
    sampling = false;
    await sampler;
    await sample();
    const wall = (performance.now() - t0) / 1000;
    const machineEnd = machineTicks();
    const machineBusy =
      (machineEnd.busy - machineStart.busy) / Math.max(1, machineEnd.total - machineStart.total);
    const done = now.done - before.done;

    const rows = [...tracked.values()]
      .map((t) => ({ ...t, cpuS: (t.last - t.first) / 1000 }))
      .filter((t) => t.cpuS > 0.05 || t.kind !== 'backend');
    const ours = rows.filter((r) => r.kind !== 'load').reduce((a, r) => a + r.cpuS, 0);
    const backends = rows.filter((r) => r.kind === 'backend');
    const fmt = (r: { label: string; cpuS: number; busiest: number }) =>
      `| ${r.label} | ${r.cpuS.toFixed(1)} | ${((100 * r.cpuS) / wall).toFixed(0)}% | ${(100 * r.busiest).toFixed(0)}% |`;
    const shown = [
      ...rows.filter((r) => r.kind !== 'backend'),
      ...backends.sort((a, b) => b.cpuS - a.cpuS).slice(0, 3),
    ];
    const table = [
      `### ${apis} API × ${workers} worker process${workers > 1 ? 'es' : ''}`,
      '',
      `${accepted} creates accepted, ${done} extractions final, in ${wall.toFixed(1)} s ` +
        `(${(done / wall).toFixed(0)}/s). The service's processes used ${ours.toFixed(1)} CPU s ` +
        `(${(ours / wall).toFixed(2)} cores on average, ${((1000 * ours) / Math.max(1, done)).toFixed(2)} CPU ms per extraction); ` +
        `the machine was ${(100 * machineBusy).toFixed(0)}% busy across its ${cpus().length} cores, other people's work included.`,
      '',
      '| Process | CPU s | Average, % of one core | Busiest second, % of one core |',
      '| --- | --- | --- | --- |',
      ...shown.map(fmt),
      `| **machine**, all processes of every user (${cpus().length} cores) | ${(
        machineBusy *
        cpus().length *
        wall
      ).toFixed(1)} | ${(100 * machineBusy * cpus().length).toFixed(0)}% | ${(
        100 *
        machineBusiest *
        cpus().length
      ).toFixed(0)}% |`,
      `| PostgreSQL backends together (${backends.length} with work) | ${backends.reduce((a, r) => a + r.cpuS, 0).toFixed(1)} | ${((100 * backends.reduce((a, r) => a + r.cpuS, 0)) / wall).toFixed(0)}% | — |`,
      '',
    ].join('\n');
    tables.push(table);
    console.log(`\n${table}`);
  }
} finally {
  await stack.stop().catch((error: unknown) => console.error('stopping:', error));
  stack.workdir.cleanup();
}
console.log(`\n${tables.join('\n')}`);
