/** A process's memory as the kernel counts it, for the tests that bound an API's peak. */
import { readFile } from 'node:fs/promises';

/** The kernel's high-water mark of the process's resident memory (VmHWM), in MiB. */
export async function peakRssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
  if (!kb) throw new Error(`no VmHWM for ${pid}`);
  return Number(kb) / 1024;
}
