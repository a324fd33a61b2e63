/**
 * The processes the write and read sections share: servers, the model stand-in, the service
 * (API and worker processes, added and removed per shape) and the bare pipeline beside it.
 */
import { randomBytes } from 'node:crypto';
import { freePort } from '@xt/embedded';
import { processTree } from './proc.ts';
import {
  startApi,
  startHaproxy,
  startModel,
  startNode,
  startServers,
  startWorker,
  type Proc,
  type Servers,
  type ServiceEnv,
  Workdir,
} from './stack.ts';
import { bareTarget, serviceTarget, type Target } from './targets.ts';

export interface StackOptions {
  servers: 'own' | 'environment';
  modelMs: number;
  workerConcurrency: number;
  /** Extra node flags for service processes, e.g. --cpu-prof. */
  nodeArgs?: string[];
  log: (line: string) => void;
}

export class BenchStack {
  readonly workdir = new Workdir();
  servers!: Servers;
  model!: Proc & { url: string };
  service!: ServiceEnv;
  serviceDbName = '';
  bareDbName = '';
  apis: (Proc & { url: string })[] = [];
  workers: Proc[] = [];
  haproxy: (Proc & { url: string }) | undefined;
  bareProcs: Proc[] = [];
  direct!: Target;
  bare!: Target;

  constructor(readonly options: StackOptions) {}

  async start(): Promise<void> {
    const { log } = this.options;
    log(`starting PostgreSQL and Redis (${this.options.servers})`);
    this.servers = await startServers(this.options.servers);
    const serviceDb = await this.servers.createDatabase('service');
    const bareDb = await this.servers.createDatabase('bare');
    this.serviceDbName = serviceDb.name;
    this.bareDbName = bareDb.name;
    log(`starting the model stand-in at ${this.options.modelMs} ms per call`);
    this.model = await startModel(this.workdir, this.options.modelMs);
    const suffix = randomBytes(3).toString('hex');
    this.service = {
      databaseUrl: serviceDb.url,
      redisUrl: this.servers.redisUrl,
      queuePrefix: `bench${suffix}`,
      modelUrl: this.model.url,
    };
    log('starting one API and one worker process, and the bare pipeline');
    const bareEnv = {
      DATABASE_URL: bareDb.url,
      REDIS_URL: this.servers.redisUrl,
      QUEUE_PREFIX: `bare${suffix}`,
      OPENAI_BASE_URL: this.model.url,
      // the stand-in imitates OpenAI (docs/models.md: MODEL_ENDPOINT_KIND)
      MODEL_ENDPOINT_KIND: 'openai',
      WORKER_CONCURRENCY: String(this.options.workerConcurrency),
    };
    const barePort = await freePort();
    // In parallel: on a busy machine each takes tens of seconds to load through tsx.
    const [bareApi, bareWorker] = await Promise.all([
      startNode(this.workdir, 'bare-api', 'scripts/bench/baseline/bare-api.ts', {
        env: { ...bareEnv, PORT: String(barePort) },
        readyText: 'bare API listening',
      }),
      startNode(this.workdir, 'bare-worker', 'scripts/bench/baseline/bare-worker.ts', {
        env: bareEnv,
        readyText: 'bare worker started',
      }),
      this.addApi(),
      this.addWorker(),
    ]);
    this.bareProcs.push(bareApi, bareWorker);
    this.direct = await serviceTarget('service', this.apis[0]!.url, serviceDb.url);
    this.bare = bareTarget(`http://127.0.0.1:${barePort}`, bareDb.url);
  }

  async addApi(): Promise<void> {
    this.apis.push(
      await startApi(
        this.workdir,
        `api-${this.apis.length + 1}`,
        this.service,
        {},
        this.options.nodeArgs,
      ),
    );
  }

  async addWorker(): Promise<void> {
    this.workers.push(
      await startWorker(
        this.workdir,
        `worker-${this.workers.length + 1}`,
        this.service,
        {
          WORKER_CONCURRENCY: String(this.options.workerConcurrency),
          // Like for like: the bare worker bounds only its concurrency. The service's own bound
          // on model calls in flight (32 by default, for memory) would otherwise cap it at 32
          // extractions per second of model latency, whatever CPU it has to spare.
          MODEL_MAX_IN_FLIGHT: String(this.options.workerConcurrency),
        },
        this.options.nodeArgs,
      ),
    );
  }

  async removeWorker(): Promise<void> {
    await this.workers.pop()?.stop();
  }

  /** HAProxy in front of the first `apis` API processes (replacing any earlier one). */
  async balance(apis: number): Promise<Target> {
    await this.haproxy?.stop();
    this.haproxy = await startHaproxy(
      this.workdir,
      this.apis.slice(0, apis).map((a) => a.url),
    );
    return this.direct.at(this.haproxy.url, `service via HAProxy (${apis} API)`);
  }

  private async serverKinds(): Promise<Record<string, number[]>> {
    return {
      PostgreSQL: await this.servers.postgresPids([this.serviceDbName, this.bareDbName]),
      Redis: [this.servers.redisPid],
    };
  }

  /** The service's processes by kind, children (esbuild, Chromium) included. */
  async serviceKinds(): Promise<Record<string, number[]>> {
    return {
      API: processTree(this.apis.map((p) => p.pid)),
      worker: processTree(this.workers.map((p) => p.pid)),
      ...(this.haproxy ? { HAProxy: [this.haproxy.pid] } : {}),
      ...(await this.serverKinds()),
    };
  }

  async bareKinds(): Promise<Record<string, number[]>> {
    return {
      API: processTree([this.bareProcs[0]!.pid]),
      worker: processTree([this.bareProcs[1]!.pid]),
      ...(await this.serverKinds()),
    };
  }

  async stop(): Promise<void> {
    await this.direct?.close().catch(() => undefined);
    await this.bare?.close().catch(() => undefined);
    for (const proc of [
      ...(this.haproxy ? [this.haproxy] : []),
      ...this.apis,
      ...this.workers,
      ...this.bareProcs,
      ...(this.model ? [this.model] : []),
    ]) {
      await proc.stop();
    }
    await this.servers?.stop();
  }
}
