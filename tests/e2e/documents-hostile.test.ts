/**
 * Documents that should never reach the model, through the whole service: a password-protected
 * file fails as unreadable, saying so; a converter that hangs or dies fails its extraction
 * (uncharged) and the worker goes on serving. The worker's CONVERTER_PATH points at a script
 * standing in for a LibreOffice that misbehaves on the files that ask it to (RTF, so the
 * request is plain text in the file). Real API, worker, PostgreSQL and Redis.
 */
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { describe, expect } from 'vitest';
import { openTestPool } from '@xt/testkit';
import { encryptedDoc, officeEncryptedFile } from '@xt/testkit/fixtures';
import type { TestApi } from '@xt/api/testing';
import { stackTest } from '../support/stack.ts';
import { uploadAndWait } from '../support/uploads.ts';

const scripts = await mkdtemp(path.join(os.tmpdir(), 'xt-e2e-soffice-'));
await chmod(scripts, 0o755);
const soffice = path.join(scripts, 'soffice');
// The input is the last argument; the converter runs this as an unprivileged user.
await writeFile(
  soffice,
  `#!/bin/sh
for a do input=$a; done
if grep -q HANG "$input"; then exec sleep 3600; fi
if grep -q CRASH "$input"; then sh -c 'kill -SEGV $$'; exit $?; fi
exit 0
`,
);
await chmod(soffice, 0o755);

const test = stackTest({
  api: { EXTRACTION_WAIT_SECONDS: '60' },
  worker: { CONVERTER_PATH: soffice, CONVERT_TIMEOUT_MS: '3000', JOB_ATTEMPTS: '1' },
});

let db: pg.Pool;
let schemaId: string;
test.beforeAll(async ({ api }) => {
  db = openTestPool(api.database.url);
  const res = await api.request('POST', '/v1/schemas', {
    json: {
      name: 'Total',
      structure: { type: 'object', properties: { total: { type: 'number' } } },
    },
  });
  schemaId = res.body.data.id;
});
test.afterAll(async () => {
  await db?.end();
  await rm(scripts, { recursive: true, force: true });
});

const submit = (api: TestApi, type: string, bytes: Buffer, name: string) =>
  uploadAndWait(api, db, { schemaId, type, bytes, name });

const rtf = (word: string) => Buffer.from(`{\\rtf1\\ansi Total 12.50 ${word}\\par}`);

describe('hostile documents', () => {
  test('a password-protected file fails as unreadable, before any model call', async ({
    api,
    model,
  }) => {
    const before = model.requests.length;
    for (const [bytes, name, what] of [
      [officeEncryptedFile(), 'locked.docx', 'Office'],
      [await encryptedDoc(), 'locked.doc', 'DOC'],
    ] as const) {
      const row = await submit(api, 'document', bytes, name);
      expect(row).toMatchObject({
        status: 'failed',
        charged: false,
        error_code: 'SOURCE_UNREADABLE',
        error_message: `The ${what} file is password-protected: its content is encrypted and cannot be read. Remove the password and send it again.`,
      });
    }
    expect(model.requests.length).toBe(before);
  });

  test('a converter that hangs fails its extraction at the deadline, and the worker serves on', async ({
    api,
    model,
  }) => {
    const before = model.requests.length;
    const hung = await submit(api, 'document', rtf('HANG'), 'hang.rtf');
    expect(hung).toMatchObject({ status: 'failed', charged: false, error_code: 'TIMEOUT' });
    const crashed = await submit(api, 'document', rtf('CRASH'), 'crash.rtf');
    expect(crashed).toMatchObject({
      status: 'failed',
      charged: false,
      error_code: 'SOURCE_UNREADABLE',
    });
    expect(crashed.error_message).toContain('killed by SIGSEGV');
    expect(model.requests.length).toBe(before);
    // The same worker takes the next job.
    const next = await api.request('POST', '/v1/extractions', {
      json: { schema_id: schemaId, type: 'text', source: 'Total 3.00' },
    });
    expect(next.status).toBe(200);
    expect(next.body.data.status).toBe('completed');
  });
});
