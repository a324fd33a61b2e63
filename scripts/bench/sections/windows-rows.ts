/** Section 15 (one long document across worker processes) run as a child, as table rows. */
import { runChild } from '../lib/child.ts';
import type { Results } from '../lib/report.ts';
import type { WindowRun, WindowsResult } from './windows.ts';

export async function measureWindows(
  quick: boolean,
  results: Results,
  log: (line: string) => void,
): Promise<void> {
  log('§15 one long document across worker processes');
  const { result: r } = await runChild<WindowsResult>(
    'scripts/bench/sections/windows.ts',
    quick ? ['--pages', '200', '--rows', '5'] : [],
    log,
  );
  const find = (workers: number, windowed: boolean) =>
    r.runs.find((x) => x.workers === workers && x.windowed === windowed) as WindowRun;
  const doc = `${r.pages}-page text PDF (${r.pages * r.rows} rows), model ${r.modelMs} ms a call`;
  for (const windowed of [true, false]) {
    const how = windowed ? 'page windows of 40 (SPLIT_PAGES)' : 'one job';
    const one = find(1, windowed);
    const two = find(2, windowed);
    results.add({
      section: '15',
      measure: `${doc}, ${how}: wall time with 2 worker processes (${two.calls} model calls${two.rowsOk ? '' : ', rows wrong'})`,
      unit: 's',
      decimals: 1,
      service: [two.seconds],
      baseline: [one.seconds],
      baselineName: `(1 worker process${one.rowsOk ? '' : ', rows wrong'})`,
    });
    for (const run of [one, two])
      results.add({
        section: '15',
        measure: `${doc}, ${how}, ${run.workers} worker process${run.workers > 1 ? 'es' : ''}: worker CPU per page (peak worker RSS ${Math.round(run.peakRssMiB)} MiB)`,
        unit: 'CPU ms',
        decimals: 2,
        service: [run.cpuMsPerPage],
      });
  }
  const w2 = find(2, true);
  const o2 = find(2, false);
  results.add({
    section: '15',
    measure: `${doc}, 2 worker processes: wall time windowed`,
    unit: 's',
    decimals: 1,
    service: [w2.seconds],
    baseline: [o2.seconds],
    baselineName: '(one job, as before windows)',
  });
}
