export { startControlledPostgres, type ControlledServer } from './controlled-postgres.ts';
export { startControlledRedis } from './controlled-redis.ts';
export { ServiceProcess } from './service-process.ts';
export { FaultClient, type FaultClientOptions, type Submission } from './fault-client.ts';
export { undocumentedReason } from './documented.ts';
export { send, type Answer } from './http.ts';
export { logProblems, type LogProblems } from './log-check.ts';
