/**
 * JSON create bodies are capped well below memory danger: twenty maximum-size JSON creates at
 * once (each a PDF as a base64 data: URL filling MAX_JSON_BODY_BYTES) to a real API process are
 * all accepted, its peak resident memory (the kernel's VmHWM) stays under 1 GiB, and a body one
 * byte past the cap is refused with 413.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiReplica, startTestApi, type TestApi } from '../../test/start-api.ts';
import { peakRssMiB } from '../../test/memory.ts';

const MiB = 1024 * 1024;
const CREATES = 20;
const PEAK_BOUND_MIB = 1024;

let api: TestApi;
let replica: Awaited<ReturnType<typeof startApiReplica>>;

beforeAll(async () => {
  api = await startTestApi();
  // The default cap (MAX_JSON_BODY_BYTES, 8 MiB) and upload size: what a deployment runs with.
  replica = await startApiReplica(api, { RATE_LIMIT_MAX: '1000' });
}, 120_000);

afterAll(async () => {
  await replica?.close();
  await api?.close();
}, 60_000);

/** A JSON create body of exactly `bytes` bytes carrying a PDF as a data: URL. */
function bodyOf(schemaId: string, bytes: number): string {
  const frame = (data: string) =>
    JSON.stringify({
      schema_id: schemaId,
      type: 'pdf',
      source: `data:application/pdf;base64,${data}`,
    });
  const room = bytes - frame('').length;
  const pdf = Buffer.alloc(Math.floor(room / 4) * 3, 0x20);
  Buffer.from('%PDF-1.7\n').copy(pdf);
  const data = pdf.toString('base64');
  return frame(data);
}

describe('twenty maximum-size JSON creates at once', () => {
  it('are accepted while the API stays under a GiB, and one past the cap is 413', async () => {
    const schema = await api.request('POST', '/v1/schemas', {
      json: { name: 'Json', structure: { type: 'object', properties: { a: { type: 'string' } } } },
    });
    const schemaId = schema.body.data.id as string;
    const cap = 8 * MiB;
    const body = bodyOf(schemaId, cap);
    expect(body.length).toBeLessThanOrEqual(cap);
    expect(body.length).toBeGreaterThan(cap - 8);
    const pid = replica.process.child.pid!;
    const idleMiB = await peakRssMiB(pid);
    const post = (text: string) =>
      fetch(`${replica.url}/v1/extractions`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${api.keys.write}`,
          prefer: 'respond-async',
          'content-type': 'application/json',
        },
        body: text,
      }).then(async (res) => ({ status: res.status, text: await res.text() }));
    const answers = await Promise.all(Array.from({ length: CREATES }, () => post(body)));
    const peakMiB = await peakRssMiB(pid);
    console.log(
      `${CREATES} × ${(body.length / MiB).toFixed(1)} MiB JSON creates: API peak RSS (VmHWM) ${peakMiB.toFixed(0)} MiB, ${idleMiB.toFixed(0)} MiB before`,
    );
    // A refusal names its cause from the API's own log (which dependency, what error).
    const refusals = () =>
      replica.process
        .output()
        .split('\n')
        .filter((line) => line.includes('answered 503'))
        .slice(0, 3)
        .join('\n');
    for (const a of answers)
      expect(a.status, `${a.text.slice(0, 300)}\n${a.status === 202 ? '' : refusals()}`).toBe(202);
    expect(peakMiB).toBeLessThan(PEAK_BOUND_MIB);

    const over = await post(`${body.slice(0, -2)}${' '.repeat(cap - body.length + 1)}"}`);
    expect(over.status).toBe(413);
    expect(JSON.parse(over.text)).toMatchObject({ code: 'BODY_TOO_LARGE' });
  }, 600_000);
});
