/** Section 15 (one long document across worker processes) run as a child, as table rows. */
import { runChild } from '../lib/child.ts';
import type { Results } from '../lib/report.ts';
import type { WindowRun, WindowsResult } from './windows.ts';

export async function measureWindows(
  quick: boolean,
  results: Results,
  log: (line: string) => void,
  scannedPages: number,
): Promise<void> {
  log('§15 one long document across worker processes');
  const text = await runChild<WindowsResult>(
    'scripts/bench/sections/windows.ts',
    quick ? ['--pages', '200', '--rows', '5'] : [],
    log,
  );
  addRows(text.result, results);
  const scanned = await runChild<WindowsResult>(
    'scripts/bench/sections/windows.ts',
    ['--kind', 'scanned', '--pages', String(quick ? 80 : scannedPages), '--rows', '5'],
    log,
  );
  addRows(scanned.result, results);
}

const loadOf = (run: WindowRun) => `load ${run.load[0].toFixed(1)}→${run.load[1].toFixed(1)}`;

function addRows(r: WindowsResult, results: Results): void {
  const find = (workers: number, windowed: boolean) =>
    r.runs.find((x) => x.workers === workers && x.windowed === windowed) as WindowRun;
  const doc =
    r.kind === 'text'
      ? `${r.pages}-page text PDF (${r.pages * r.rows} rows), model ${r.modelMs} ms a call`
      : `${r.pages}-page scanned PDF, citations (OCR), model ${r.modelMs} ms a call`;
  const wrong = r.kind === 'text' ? ', rows wrong' : ', not completed';
  for (const windowed of [true, false]) {
    const how = windowed ? 'page windows of 40 (SPLIT_PAGES)' : 'one job';
    const one = find(1, windowed);
    const two = find(2, windowed);
    results.add({
      section: '15',
      measure: `${doc}, ${how}: wall time with 2 worker processes (${two.calls} model calls${two.rowsOk ? '' : wrong}; ${loadOf(two)})`,
      unit: 's',
      decimals: 1,
      service: [two.seconds],
      baseline: [one.seconds],
      baselineName: `(1 worker process${one.rowsOk ? '' : wrong}; ${loadOf(one)})`,
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
  for (const workers of [1, 2]) {
    const w = find(workers, true);
    const o = find(workers, false);
    results.add({
      section: '15',
      measure: `${doc}, ${workers} worker process${workers > 1 ? 'es' : ''}: wall time windowed`,
      unit: 's',
      decimals: 1,
      service: [w.seconds],
      baseline: [o.seconds],
      baselineName: '(one job, as before windows)',
    });
  }
}
