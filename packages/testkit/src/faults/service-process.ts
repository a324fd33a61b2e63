import { startAppProcess, type AppProcess } from '../harness/processes.ts';
import { exited } from './signals.ts';

/**
 * An API or worker process under test, restartable with the same settings. It remembers which
 * exits the test caused, so `unexpectedExit()` can tell a process that died on its own (what a
 * dependency fault must never cause) from one the test killed.
 */
export class ServiceProcess {
  readonly name: string;
  #current: AppProcess | undefined;
  #previousOutput = '';
  #unexpected: string | undefined;
  #expectingExit = false;
  readonly #entry: string;
  readonly #env: Record<string, string>;
  readonly #readyText: string;

  private constructor(name: string, entry: string, env: Record<string, string>, ready: string) {
    this.name = name;
    this.#entry = entry;
    this.#env = env;
    this.#readyText = ready;
  }

  static async start(
    name: string,
    entry: string,
    env: Record<string, string>,
    readyText: string,
  ): Promise<ServiceProcess> {
    const service = new ServiceProcess(name, entry, env, readyText);
    await service.restart();
    return service;
  }

  get pid(): number | undefined {
    return this.#current?.child.pid;
  }

  get running(): boolean {
    const child = this.#current?.child;
    return child !== undefined && child.exitCode === null && child.signalCode === null;
  }

  /** Starts the process again (after the test stopped it), resolving once it is ready. */
  async restart(): Promise<void> {
    if (this.running) throw new Error(`${this.name} is still running`);
    this.#previousOutput = this.output();
    this.#expectingExit = false;
    const proc = await startAppProcess(this.#entry, this.#env, this.#readyText, 120_000);
    this.#current = proc;
    proc.child.once('exit', (code, signal) => {
      if (this.#expectingExit || this.#current !== proc) return;
      this.#unexpected ??= `${this.name} exited by itself (code ${code}, signal ${signal})`;
    });
  }

  /** Sends `signal` (the test's own doing) and resolves once the process has exited. */
  async signal(signal: NodeJS.Signals, graceMs = 60_000): Promise<number | null> {
    const proc = this.#current;
    if (proc === undefined || !this.running) return proc?.child.exitCode ?? null;
    this.#expectingExit = true;
    const gone = exited(proc.child);
    proc.child.kill(signal);
    const timer = setTimeout(() => proc.child.kill('SIGKILL'), graceMs);
    await gone;
    clearTimeout(timer);
    return proc.child.exitCode;
  }

  /** Every run's output, oldest first. */
  output(): string {
    return this.#previousOutput + (this.#current?.output() ?? '');
  }

  /** Why the process ended without the test asking it to, if it did. */
  unexpectedExit(): string | undefined {
    return this.#unexpected;
  }

  stop(): Promise<number | null> {
    return this.signal('SIGTERM');
  }
}
