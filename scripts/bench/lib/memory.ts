/**
 * Peak memory per process kind while a section runs: each process's own peak RSS (VmHWM, reset
 * at the start) and, for kinds made of many processes (PostgreSQL, Chromium), the peak of their
 * summed PSS, sampled every 500 ms, so shared pages are not counted once per process.
 */
import { peakRssMiB, pssMiB, resetPeak } from './proc.ts';

export interface KindPeak {
  /** The largest single process's peak RSS. */
  processMiB: number;
  /** The peak of the kind's total PSS over the samples. */
  totalMiB: number;
  processes: number;
}

export type KindPids = () => Promise<Record<string, number[]>> | Record<string, number[]>;

export class MemoryWatch {
  private timer: NodeJS.Timeout | undefined;
  private readonly peaks = new Map<string, KindPeak>();
  private sampling: Promise<void> = Promise.resolve();

  constructor(private readonly kinds: KindPids) {}

  async start(): Promise<void> {
    for (const pids of Object.values(await this.kinds())) pids.forEach(resetPeak);
    this.timer = setInterval(() => {
      this.sampling = this.sample();
    }, 500);
  }

  private async sample(): Promise<void> {
    for (const [kind, pids] of Object.entries(await this.kinds())) {
      const peak = this.peaks.get(kind) ?? { processMiB: 0, totalMiB: 0, processes: 0 };
      peak.processMiB = Math.max(peak.processMiB, ...pids.map(peakRssMiB));
      peak.totalMiB = Math.max(
        peak.totalMiB,
        pids.reduce((sum, pid) => sum + pssMiB(pid), 0),
      );
      peak.processes = Math.max(peak.processes, pids.length);
      this.peaks.set(kind, peak);
    }
  }

  async stop(): Promise<Record<string, KindPeak>> {
    clearInterval(this.timer);
    await this.sampling;
    await this.sample();
    return Object.fromEntries(this.peaks);
  }
}

/** Peaks per section ("2", "3", …), then per process kind. */
export type MemoryBySection = Record<string, Record<string, KindPeak>>;

/** Folds one watch's peaks into a section's, keeping the larger of each figure. */
export function mergePeaks(
  memory: MemoryBySection,
  section: string,
  peaks: Record<string, KindPeak>,
): void {
  const into = (memory[section] ??= {});
  for (const [kind, peak] of Object.entries(peaks)) {
    if (peak.processes === 0) continue;
    const known = into[kind];
    into[kind] = known
      ? {
          processMiB: Math.max(known.processMiB, peak.processMiB),
          totalMiB: Math.max(known.totalMiB, peak.totalMiB),
          processes: Math.max(known.processes, peak.processes),
        }
      : peak;
  }
}
