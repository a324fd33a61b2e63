import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { XtClient } from '../client.ts';
import { XtError } from '../errors.ts';
import { buildReport } from './aggregate.ts';
import { parseEvalArgs, USAGE, UsageError, type EvalArgs } from './args.ts';
import { compareReports, parseReport } from './compare.ts';
import { DatasetError, loadDataset } from './dataset.ts';
import { renderHtml } from './html.ts';
import { renderMarkdown } from './markdown.ts';
import { DEFAULT_PRICES, parsePriceTable } from './prices.ts';
import { progressBar, type ProgressStream } from './progress.ts';
import { recordedFigure } from './recorded.ts';
import { runCases } from './run-cases.ts';
import { renderSideBySide, type ModelRun } from './side-by-side.ts';

export type { EvalReport } from './report-types.ts';
export { scoreOutput } from './score.ts';

export interface EvalIo {
  stdout: ProgressStream;
  stderr: ProgressStream;
  /** where relative paths start, and where `.data/dev-api-key.txt` is looked for */
  cwd: string;
}

/** The model the service uses when a create names none (the contract's default). */
const SERVICE_DEFAULT_MODEL = 'gpt-4.1';

/**
 * `xt eval`: runs a data set through the service, scores every case and prints the Markdown
 * summary. Returns the exit code: 0, 1 below `--min-accuracy`, 2 for bad usage or a data set
 * it cannot read, 3 when the service refused the run.
 */
export async function runEval(argv: string[], io: EvalIo): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.stdout.write(USAGE);
    return 0;
  }
  let args: EvalArgs;
  try {
    args = parseEvalArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`xt eval: ${error.message}\n\n${USAGE}`);
    return 2;
  }
  const at = (file: string) => path.resolve(io.cwd, file);
  try {
    const runs = await evaluate(args, io, at);
    const several = runs.length > 1;
    let below = false;
    for (const { model, report } of runs) {
      io.stdout.write(renderMarkdown(report));
      if (several) io.stdout.write('\n');
      const file = (name: string) => at(several ? perModel(name, model!) : name);
      if (args.out) await writeOut(file(args.out), `${JSON.stringify(report, null, 2)}\n`);
      if (args.html) await writeOut(file(args.html), renderHtml(report));
      if (args.minAccuracy !== undefined && report.summary.accuracy < args.minAccuracy) {
        const whose = several ? ` of ${model}` : '';
        io.stderr.write(
          `xt eval: accuracy${whose} ${report.summary.accuracy.toFixed(4)} is below --min-accuracy ${args.minAccuracy}\n`,
        );
        below = true;
      }
    }
    // Last, so the comparison is what stays on the screen.
    if (several) io.stdout.write(renderSideBySide(runs));
    return below ? 1 : 0;
  } catch (error) {
    if (error instanceof UsageError || error instanceof DatasetError) {
      io.stderr.write(`xt eval: ${error.message}\n`);
      return 2;
    }
    if (error instanceof XtError) {
      io.stderr.write(`xt eval: the service refused the run: ${error.message}\n`);
      return 3;
    }
    throw error;
  }
}

async function evaluate(
  args: EvalArgs,
  io: EvalIo,
  at: (file: string) => string,
): Promise<ModelRun[]> {
  const dataset = await loadDataset(at(args.dataset));
  const prices = args.prices
    ? parsePriceTable(await readText(at(args.prices), '--prices'))
    : DEFAULT_PRICES;
  const earlier = args.compare
    ? parseReport(await readText(at(args.compare), '--compare'), args.compare)
    : undefined;
  const apiKey = args.key ?? (await devKey(io.cwd));
  const client = new XtClient({ baseUrl: args.baseUrl, apiKey });
  const schema = await client.schemas.create({
    name: dataset.schema.name,
    structure: dataset.schema.structure,
    ...(dataset.schema.description ? { description: dataset.schema.description } : {}),
  });
  const models = args.models.length ? args.models : [undefined];
  const runs: ModelRun[] = [];
  // One model after another: run together they would share the workers, and each one's
  // latency would include waiting behind the other's calls.
  for (const model of models) {
    const label = models.length > 1 ? `${dataset.name} · ${model}` : dataset.name;
    const bar = progressBar(io.stderr, label);
    bar.update(0, dataset.cases.length);
    const outcomes = await runCases({
      client,
      dataset,
      schemaId: schema.id,
      model,
      instruction: args.instruction,
      citations: args.citations,
      concurrency: args.concurrency,
      site: args.site,
      timeoutMs: args.timeoutSeconds * 1000,
      onCaseDone: (done, total) => bar.update(done, total),
    }).finally(() => bar.finish());
    const report = buildReport({
      dataset: dataset.name,
      settings: {
        baseUrl: args.baseUrl,
        model: model ?? null,
        instruction: args.instruction ?? null,
        citations: args.citations,
        concurrency: args.concurrency,
      },
      pricedModel: model ?? SERVICE_DEFAULT_MODEL,
      prices,
      outcomes,
    });
    const recorded = recordedFigure(dataset);
    if (recorded) report.summary.recorded = recorded;
    if (earlier) report.comparison = compareReports(earlier, report, args.compare!);
    runs.push({ model: model ?? null, report });
  }
  return runs;
}

/** `base.json` for model `a/b:7` is `base.a_b_7.json`: one report file per model, side by side. */
function perModel(file: string, model: string): string {
  const safe = model.replace(/[^\w.-]/g, '_');
  const ext = path.extname(file);
  return `${file.slice(0, file.length - ext.length)}.${safe}${ext}`;
}

/** The development key `npm start` saved on its first start, read from the working folder. */
async function devKey(cwd: string): Promise<string> {
  const file = path.join(cwd, '.data', 'dev-api-key.txt');
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch {
    throw new UsageError(`no --key given and ${file} (written by npm start) is missing`);
  }
}

async function readText(file: string, flag: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    throw new UsageError(`${flag}: cannot read ${file}`);
  }
}

async function writeOut(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
}
