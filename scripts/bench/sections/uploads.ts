/**
 * 5 (uploads). Upload ingestion: a multi-megabyte PDF sent as a multipart file part with
 * `Prefer: respond-async`, four at a time, MB/s until every answer is in, and the API's peak
 * RSS meanwhile; beside a bare Express + multer route storing the same bytes in PostgreSQL.
 */
import { PDFDocument } from 'pdf-lib';
import { jpegImage } from '@xt/testkit/fixtures';
import type { BenchStack } from '../lib/bench-stack.ts';
import { closedLoop, send } from '../lib/client.ts';
import type { Plan } from '../lib/plan.ts';
import { cpuMs, peakRssMiB, processTree, resetPeak } from '../lib/proc.ts';
import type { Results } from '../lib/report.ts';

/** A PDF of about `megabytes` MB: pages each holding one noisy photo. */
export async function bigPdf(megabytes: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  let bytes = Buffer.from(await doc.save());
  for (let seed = 1; bytes.length < megabytes * 1e6; seed++) {
    // A distinct noisy photo per page, so the file really grows page by page.
    const photo = await doc.embedJpg(await jpegImage({ width: 2000 + seed, height: 1500 }));
    doc.addPage([612, 792]).drawImage(photo, { x: 0, y: 0, width: 612, height: 792 });
    bytes = Buffer.from(await doc.save());
  }
  return bytes;
}

export async function measureUploads(
  stack: BenchStack,
  plan: Plan,
  results: Results,
  log: (line: string) => void,
): Promise<void> {
  const file = await bigPdf(plan.quick ? 5 : 20);
  const mb = file.length / 1e6;
  const count = plan.quick ? 4 : 12;
  const schemaId = await firstSchemaId(stack);
  const form = (name: string) => {
    const body = new FormData();
    if (name === 'service') {
      body.set('schema_id', schemaId);
      body.set('type', 'pdf');
    }
    body.set('source', new Blob([file], { type: 'application/pdf' }), 'bench.pdf');
    return body;
  };
  const figures = {
    service: [] as number[],
    bare: [] as number[],
    rss: [] as number[],
    bareRss: [] as number[],
    // CPU ms per MB, load-independent: the receiving API process alone, and with PostgreSQL.
    apiCpu: [] as number[],
    bareApiCpu: [] as number[],
    withDbCpu: [] as number[],
    bareWithDbCpu: [] as number[],
  };
  for (let rep = 1; rep <= plan.reps; rep++) {
    for (const which of ['service', 'bare'] as const) {
      const pid = which === 'service' ? stack.apis[0]!.pid : stack.bareProcs[0]!.pid;
      resetPeak(pid);
      const pgPids = await stack.servers.postgresPids([stack.serviceDbName, stack.bareDbName]);
      const apiBefore = cpuMs(processTree([pid]));
      const pgBefore = cpuMs(pgPids);
      log(`§5 rep ${rep}: ${which} uploads, ${count} × ${mb.toFixed(1)} MB`);
      const t0 = performance.now();
      const answers = await closedLoop(
        4,
        (sent) => sent >= count,
        () =>
          which === 'service'
            ? send(`${stack.direct.base}/v1/extractions`, {
                method: 'POST',
                headers: {
                  authorization: stack.direct.headers.authorization!,
                  prefer: 'respond-async',
                },
                body: form('service'),
              })
            : send(`${stack.bare.base}/uploads`, { method: 'POST', body: form('bare') }),
      );
      const seconds = (performance.now() - t0) / 1000;
      const bad = answers.filter((a) => a.status !== 202);
      if (bad.length > 0)
        log(`  ${bad.length} uploads answered ${bad[0]!.status}: ${bad[0]!.body.slice(0, 200)}`);
      figures[which].push(((count - bad.length) * mb) / seconds);
      const apiMs = cpuMs(processTree([pid])) - apiBefore;
      // Backends that ended meanwhile are reaped by the postmaster, whose count includes them.
      const pgMs = cpuMs(pgPids) - pgBefore;
      const stored = (count - bad.length) * mb;
      figures[which === 'service' ? 'apiCpu' : 'bareApiCpu'].push(apiMs / stored);
      figures[which === 'service' ? 'withDbCpu' : 'bareWithDbCpu'].push((apiMs + pgMs) / stored);
      figures[which === 'service' ? 'rss' : 'bareRss'].push(peakRssMiB(pid));
    }
  }
  results.add({
    section: '5',
    measure: `Upload ingestion, ${mb.toFixed(0)} MB PDFs, 4 at a time`,
    unit: 'MB/s',
    service: figures.service,
    baseline: figures.bare,
    baselineName: '(bare Express + multer → bytea)',
  });
  results.add({
    section: '5',
    measure: 'Upload ingestion CPU per MB, API process',
    unit: 'CPU ms',
    decimals: 1,
    service: figures.apiCpu,
    baseline: figures.bareApiCpu,
    baselineName: '(bare Express + multer → bytea)',
  });
  results.add({
    section: '5',
    measure: 'Upload ingestion CPU per MB, API + PostgreSQL',
    unit: 'CPU ms',
    decimals: 1,
    service: figures.withDbCpu,
    baseline: figures.bareWithDbCpu,
    baselineName: '(bare Express + multer → bytea)',
  });
  results.add({
    section: '5',
    measure: 'API peak RSS during uploads',
    unit: 'MiB',
    decimals: 0,
    service: figures.rss,
    baseline: figures.bareRss,
    baselineName: '(bare API)',
  });
}

export async function firstSchemaId(stack: BenchStack): Promise<string> {
  const answer = await send(`${stack.direct.base}/v1/schemas?limit=1`, {
    headers: stack.direct.headers,
  });
  const body = JSON.parse(answer.body) as { data: { data: { id: string }[] } };
  return body.data.data[0]!.id;
}
