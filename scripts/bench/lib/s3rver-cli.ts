/**
 * s3rver (an S3-protocol server on local disk) in its own process for §12, so its work is not
 * charged to the benchmark's client. `--dir DIR`; prints `S3_ENDPOINT=…` once it listens.
 */
import { parseArgs } from 'node:util';
import S3rver from 's3rver';

const { values } = parseArgs({ options: { dir: { type: 'string' }, bucket: { type: 'string' } } });
const server = new S3rver({
  address: '127.0.0.1',
  port: 0,
  silent: true,
  directory: values.dir!,
  configureBuckets: [{ name: values.bucket!, configs: [] }],
});
const { port } = (await server.run()) as { port: number };
console.log(`S3_ENDPOINT=http://127.0.0.1:${port}`);
process.once('SIGTERM', () => void server.close().then(() => process.exit(0)));
