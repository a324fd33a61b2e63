/**
 * The object store against MinIO, started through testcontainers when a Docker engine answers
 * (as in CI set-ups with one); without an engine the suite is skipped and says so.
 */
import { GenericContainer, Wait, type StartedTestContainer } from 'testcontainers';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { dockerReachable } from '@xt/testkit/env';
import { describeS3Store } from '../test/s3-store-contract.ts';

const docker = await dockerReachable(process.env);
const credentials = { accessKeyId: 'minioadmin', secretAccessKey: 'minioadmin' };

if (!docker) {
  describe('the S3 store on MinIO', () => {
    it.skip('needs a Docker engine (none answered): the s3rver suite covers the store', () => {});
  });
} else {
  let container: StartedTestContainer;
  let endpoint = '';
  beforeAll(async () => {
    container = await new GenericContainer('minio/minio:RELEASE.2025-04-22T22-12-26Z')
      .withCommand(['server', '/data'])
      .withExposedPorts(9000)
      .withWaitStrategy(Wait.forHttp('/minio/health/ready', 9000))
      .start();
    endpoint = `http://${container.getHost()}:${container.getMappedPort(9000)}`;
    const client = new S3Client({
      endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials,
    });
    await client.send(new CreateBucketCommand({ Bucket: 'xt' }));
  }, 180_000);
  afterAll(async () => {
    await container?.stop();
  });
  // No outage check here: a restarted container comes back on another mapped port.
  describeS3Store('MinIO', () => ({ bucket: 'xt', endpoint, forcePathStyle: true, credentials }));
}
