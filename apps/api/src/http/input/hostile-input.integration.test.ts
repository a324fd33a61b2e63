/**
 * Hostile input against the real API: the cases once answered 500 or outside the envelope, then
 * random and mutated requests derived from the routes' bodies and queries (fast-check, seeded).
 */
import fc from 'fast-check';
import { craftedMsg } from '@xt/testkit/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkResponsesAgainstOpenApi,
  startTestApi,
  type TestApi,
  type TestResponse,
} from '../../../test/start-api.ts';

checkResponsesAgainstOpenApi();

let api: TestApi;
let schemaId: string;
const structure = { type: 'object', properties: { total: { type: 'number' } } };

beforeAll(async () => {
  api = await startTestApi();
  const res = await api.request('POST', '/v1/schemas', { json: { name: 'Hostile', structure } });
  schemaId = res.body.data.id;
});
afterAll(async () => api?.close());

const fields = (res: TestResponse) =>
  (res.body?.errors ?? []).map((e: { field: string }) => e.field);
const async = { prefer: 'respond-async' };

describe('text the database cannot store', () => {
  it('refuses NUL in every text field and in search with a 422 naming the field', async () => {
    const nul = 'a\u0000b';
    const schema = await api.request('POST', '/v1/schemas', {
      json: {
        name: nul,
        description: nul,
        structure: { type: 'object', properties: { t: { type: 'string', describe: nul } } },
      },
    });
    expect(schema.status).toBe(422);
    expect(fields(schema).sort()).toEqual([
      'description',
      'name',
      'structure.properties.t.describe',
    ]);
    const extraction = await api.request('POST', '/v1/extractions', {
      json: {
        schema_id: schemaId,
        type: 'text',
        source: nul,
        instruction: nul,
        metadata: { k: nul },
      },
      headers: async,
    });
    expect(extraction.status).toBe(422);
    expect(fields(extraction).sort()).toEqual(['instruction', 'metadata.k', 'source']);
    const form = new FormData();
    form.append('schema_id', schemaId);
    form.append('type', 'text');
    form.append('source', nul);
    const multipart = await api.request('POST', '/v1/extractions', { body: form, headers: async });
    expect(multipart.status).toBe(422);
    expect(fields(multipart)).toEqual(['source']);
    for (const path of ['/v1/schemas', '/v1/extractions']) {
      const search = await api.request('GET', `${path}?search=a%00b`);
      expect(search.status).toBe(422);
      expect(fields(search)).toEqual(['search']);
    }
  });

  it('refuses lone surrogates alike in description and structure', async () => {
    const res = await api.request('POST', '/v1/schemas', {
      body: '{"name":"s","description":"x\\ud800y","structure":{"type":"object","properties":{"t":{"type":"string","describe":"\\udc00"}}}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(422);
    expect(fields(res).sort()).toEqual(['description', 'structure.properties.t.describe']);
    const pair = await api.request('POST', '/v1/schemas', {
      json: { name: 'emoji \ud83d\ude00', structure },
    });
    expect(pair.status).toBe(201);
    expect(pair.body.data.name).toBe('emoji \ud83d\ude00');
  });

  it("names the request's other invalid fields beside the unstorable one, in every body", async () => {
    const schema = await api.request('POST', '/v1/schemas', {
      json: { name: 'a\u0000b', structure: { type: 'object', properties: {} }, extra: 1 },
    });
    expect(schema.status).toBe(422);
    expect(fields(schema).sort()).toEqual(['name', 'structure.properties']);
    const extraction = await api.request('POST', '/v1/extractions', {
      json: { type: 'text', source: 'x\ud800', citations: 'yes' },
    });
    expect(extraction.status).toBe(422);
    expect(fields(extraction).sort()).toEqual(['citations', 'schema_id', 'source']);
    const webhook = await api.request('POST', '/v1/webhooks', {
      json: { url: 'ftp://example.com/hook', events: [], description: '\u0000' },
    });
    expect(webhook.status).toBe(422);
    expect(fields(webhook)).toEqual(expect.arrayContaining(['description', 'url', 'events']));
  });

  it('names every invalid field beside one nested deeper than 100 levels', async () => {
    const deep = (n: number) => JSON.parse(`${'['.repeat(n)}1${']'.repeat(n)}`) as unknown;
    const extraction = await api.request('POST', '/v1/extractions', {
      json: { type: 'txt', source: 'x', citations: 'yes', metadata: deep(150) },
      headers: async,
    });
    expect(extraction.status).toBe(422);
    expect(fields(extraction).sort()).toEqual(['citations', 'metadata', 'schema_id', 'type']);
    const schema = await api.request('POST', '/v1/schemas', {
      json: { name: 7, description: 'd\u0000', structure: deep(101) },
    });
    expect(schema.status).toBe(422);
    expect(fields(schema).sort()).toEqual(['description', 'name', 'structure']);
  });

  it('names a schema_id that names no schema beside the deep field and any other', async () => {
    const deep = JSON.parse(`${'['.repeat(150)}1${']'.repeat(150)}`) as unknown;
    const unknownSchema = '00000000-0000-4000-8000-000000000000';
    const alone = await api.request('POST', '/v1/extractions', {
      json: { schema_id: unknownSchema, type: 'text', source: 'x', metadata: deep },
      headers: async,
    });
    expect(alone.status).toBe(422);
    expect(alone.body.errors).toEqual([
      { field: 'metadata', message: expect.stringMatching(/100/) },
      { field: 'schema_id', message: 'schema_id does not name a schema of this account' },
    ]);
    const withOthers = await api.request('POST', '/v1/extractions', {
      json: { schema_id: unknownSchema, type: 'txt', source: 'x', metadata: deep },
      headers: async,
    });
    expect(fields(withOthers).sort()).toEqual(['metadata', 'schema_id', 'type']);
    const malformed = await api.request('POST', '/v1/extractions', {
      json: { schema_id: 'nope', type: 'text', source: 'x', metadata: deep },
      headers: async,
    });
    expect(fields(malformed).sort()).toEqual(['metadata', 'schema_id']);
    // Another account's schema is no schema of this one.
    const theirs = await api.request('POST', '/v1/extractions', {
      json: { schema_id: schemaId, type: 'text', source: 'x', metadata: deep },
      headers: async,
      key: api.keys.other,
    });
    expect(fields(theirs).sort()).toEqual(['metadata', 'schema_id']);
    const known = await api.request('POST', '/v1/extractions', {
      json: { schema_id: schemaId, type: 'text', source: 'x', metadata: deep },
      headers: async,
    });
    expect(fields(known)).toEqual(['metadata']);
  });
});

describe('an uploaded Outlook message whose structure lies', () => {
  it('is refused at once with a 422 on source, as email and as auto alike', async () => {
    for (const type of ['email', 'auto']) {
      const form = new FormData();
      form.append('schema_id', schemaId);
      form.append('type', type);
      form.append('source', new Blob([craftedMsg({ bodySize: 256 * 2 ** 20 })]), 'invoice.msg');
      const started = performance.now();
      const res = await api.request('POST', '/v1/extractions', { body: form, headers: async });
      expect(performance.now() - started).toBeLessThan(5000);
      expect(res.status, type).toBe(422);
      expect(res.body.errors).toEqual([
        {
          field: 'source',
          message: expect.stringMatching(
            /the file is a damaged OLE compound file \(entry 2 declares 268435456 bytes, more than the whole file\)/,
          ),
        },
      ]);
    }
  });
});

describe('dates at the ends of the calendar', () => {
  it('refuses year 0 and treats 9999-12-31 as the last day', async () => {
    for (const q of ['startDate=0000-01-01', 'endDate=0000-01-01']) {
      const res = await api.request('GET', `/v1/schemas?${q}`);
      expect(res.status, q).toBe(422);
      expect(fields(res)).toEqual([q.split('=')[0]]);
    }
    const all = await api.request('GET', '/v1/schemas?startDate=0001-01-01&endDate=9999-12-31');
    expect(all.status).toBe(200);
    expect(all.body.data.meta.total).toBeGreaterThan(0);
    const none = await api.request('GET', '/v1/extractions?startDate=9999-12-31');
    expect(none.status).toBe(200);
    expect(none.body.data.data).toEqual([]);
  });
});

describe('requests outside the routes', () => {
  it('answers OPTIONS with the envelope, 405 and Allow', async () => {
    const res = await api.request('OPTIONS', '/v1/schemas');
    expect(res.status).toBe(405);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('allow')).toMatch(/POST/);
    expect(res.body).toMatchObject({ status: false, code: 'METHOD_NOT_ALLOWED' });
  });

  it('answers a multipart body with an empty boundary with 400', async () => {
    const res = await api.request('POST', '/v1/extractions', {
      body: '--\r\nContent-Disposition: form-data; name="type"\r\n\r\ntext\r\n----\r\n',
      headers: { 'content-type': 'multipart/form-data; boundary=' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, message: expect.any(String) });
  });
});

/** What no answer may contain: SQL, a stack trace, a filesystem path. */
const LEAKS = [
  /\b(select|insert|update|delete)\b[^"]{0,80}\b(from|into|set|where)\b/i,
  /\bat [\w.<>]+ \(/,
  /node_modules|\/work\/|\/home\/|\/usr\/|[A-Z]:\\\\/,
  /violates|constraint|syntax error|invalid byte sequence|pg_|drizzle/i,
];

function checkAnswer(res: TestResponse, what: string): void {
  const where = `${what} -> ${res.status} ${res.text.slice(0, 300)}`;
  expect(res.status, where).toBeLessThan(500);
  if (res.status >= 400) {
    expect(res.headers.get('content-type'), where).toMatch(/^application\/json/);
    expect(res.body?.status, where).toBe(false);
    if (res.status === 422) {
      expect(Array.isArray(res.body.errors) && res.body.errors.length > 0, where).toBe(true);
      for (const e of res.body.errors as { field: unknown; message: unknown }[]) {
        expect(typeof e.field === 'string' && e.field !== '', where).toBe(true);
        expect(typeof e.message, where).toBe('string');
      }
    } else expect(typeof res.body.message, where).toBe('string');
  }
  for (const leak of LEAKS) expect(leak.test(res.text), `${where} matches ${leak}`).toBe(false);
}

/**
 * Sources built to make a parser or pattern take super-linear time or exhaust its stack: trailing
 * blank lines, runs of spaces and tabs, a <pre> of spaces, deep HTML, deep JSON, emphasis marks.
 */
const pathological = fc.constantFrom(
  `Total: 12${'\n'.repeat(5_000)}`,
  `a${' \t'.repeat(20_000)}b${' \t'.repeat(20_000)}`,
  `<pre>${' '.repeat(200_000)}</pre>`,
  `${'<div>'.repeat(60_000)}x${'</div>'.repeat(60_000)}`,
  `${'['.repeat(100_000)}1${']'.repeat(100_000)}`,
  `x ${'*_'.repeat(50_000)} y`,
);

// Strings a hostile client sends: control characters, NUL, surrogates, SQL-ish and huge text.
const nasty = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom(
    '\u0000',
    '\ud800',
    "' or 1=1 --",
    '%',
    '_',
    '\\',
    '0000-01-01',
    '9999-12-31',
    '-1',
    '1e309',
    'NaN',
    '00000000-0000-0000-0000-000000000000',
    '../../etc/passwd',
    'x'.repeat(5000),
  ),
);
// Body values; the pathological sources only here, as URLs that long are refused by Node (431).
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  nasty,
  pathological,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(nasty, { maxLength: 3 }),
  fc.dictionary(nasty, nasty, { maxKeys: 3 }),
);

/** A valid body with some fields replaced, removed or added. */
function mutated(valid: Record<string, unknown>): fc.Arbitrary<Record<string, unknown>> {
  const keys = Object.keys(valid);
  return fc
    .record({
      replace: fc.dictionary(fc.constantFrom(...keys), anyValue, { maxKeys: 3 }),
      drop: fc.subarray(keys, { maxLength: 2 }),
      extra: fc.dictionary(nasty, anyValue, { maxKeys: 2 }),
    })
    .map(({ replace, drop, extra }) => {
      const body: Record<string, unknown> = { ...extra, ...valid, ...replace };
      for (const k of drop) delete body[k];
      return body;
    });
}

const query = fc
  .dictionary(
    fc.constantFrom('page', 'limit', 'startDate', 'endDate', 'search', 'status', 'schema_id'),
    nasty,
    { maxKeys: 4 },
  )
  .map((q) => new URLSearchParams(q).toString());

function encodePath(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return '%ED%A0%80'; // a lone surrogate has no UTF-8 form: send the bytes it would have had
  }
}

type Req = { method: string; path: string; body?: string; type?: string };

function requests(): fc.Arbitrary<Req> {
  const schemaBody = {
    name: 'n',
    description: 'd',
    structure: { type: 'object', properties: { a: { type: 'string', minLength: '1' } } },
  };
  const extractionBody = {
    schema_id: schemaId,
    type: 'text',
    source: 's',
    instruction: 'i',
    model: 'gpt-4.1',
    metadata: { k: 'v' },
  };
  const id = fc.oneof(fc.constant(schemaId), fc.uuid(), nasty.map(encodePath));
  const json = (b: unknown) => JSON.stringify(b);
  return fc.oneof(
    fc.record({ method: fc.constant('GET'), path: query.map((q) => `/v1/schemas?${q}`) }),
    fc.record({ method: fc.constant('GET'), path: query.map((q) => `/v1/extractions?${q}`) }),
    fc.record({
      method: fc.constantFrom('GET', 'DELETE', 'OPTIONS', 'HEAD'),
      path: fc
        .tuple(fc.constantFrom('schemas', 'extractions'), id)
        .map(([r, i]) => `/v1/${r}/${i}`),
    }),
    fc.record({
      method: fc.constantFrom('POST', 'PUT', 'PATCH'),
      path: fc.oneof(
        fc.constant('/v1/schemas'),
        id.map((i) => `/v1/schemas/${i}`),
      ),
      body: mutated(schemaBody).map(json),
      type: fc.constant('application/json'),
    }),
    fc.record({
      method: fc.constant('POST'),
      path: fc.constant('/v1/extractions'),
      body: mutated(extractionBody).map(json),
      type: fc.constant('application/json'),
    }),
    fc.record({
      method: fc.constant('POST'),
      path: fc.constant('/v1/extractions'),
      body: mutated(extractionBody).map((b) =>
        new URLSearchParams(
          Object.entries(b).map(([k, v]): [string, string] => [
            k,
            typeof v === 'string' ? v : (JSON.stringify(v) ?? ''),
          ]),
        ).toString(),
      ),
      type: fc.constant('application/x-www-form-urlencoded'),
    }),
    // A body whose own JSON nests 100,000 deep, where metadata or a structure is expected.
    fc.record({
      method: fc.constant('POST'),
      path: fc.constantFrom('/v1/schemas', '/v1/extractions'),
      body: fc
        .constantFrom('metadata', 'structure', 'source')
        .map(
          (field) =>
            `{"schema_id":"${schemaId}","name":"n","type":"text","${field}":${'['.repeat(100_000)}1${']'.repeat(100_000)}}`,
        ),
      type: fc.constant('application/json'),
    }),
    // Bodies cut short or with a broken content type.
    fc.record({
      method: fc.constant('POST'),
      path: fc.constantFrom('/v1/schemas', '/v1/extractions'),
      body: fc.tuple(mutated(schemaBody), fc.nat(60)).map(([b, n]) => json(b).slice(0, n)),
      type: fc.constantFrom(
        'application/json',
        'text/plain',
        'multipart/form-data; boundary=',
        'multipart/form-data; boundary=x',
        'application/json; charset=latin-9',
      ),
    }),
  );
}

describe('random and mutated requests', () => {
  it('never get a 5xx, a bare error, a 422 without a field, or anything internal', async () => {
    const seed = Number(process.env.HOSTILE_SEED ?? Date.now() % 2 ** 31);
    await fc.assert(
      fc.asyncProperty(requests(), async (r) => {
        const headers: Record<string, string> = { prefer: 'respond-async' };
        if (r.type) headers['content-type'] = r.type;
        const res = await api.request(r.method, r.path, {
          headers,
          ...(r.body !== undefined ? { body: r.body } : {}),
        });
        if (r.method === 'HEAD') {
          expect(res.status).toBeLessThan(500);
          return;
        }
        checkAnswer(res, `${r.method} ${r.path} ${r.type ?? ''} ${(r.body ?? '').slice(0, 200)}`);
      }),
      {
        seed,
        numRuns: 300,
        reporter: (details) => {
          if (details.failed)
            throw new Error(
              `hostile-input property failed; rerun with HOSTILE_SEED=${seed}\n${fc.defaultReportMessage(details)}`,
            );
        },
      },
    );
  });
});
