import { parseArgs } from 'node:util';

export interface EvalArgs {
  dataset: string;
  baseUrl: string;
  key: string | undefined;
  /** `--model` alone keeps today's single run; empty: the service's default */
  models: string[];
  instruction: string | undefined;
  citations: boolean;
  concurrency: number;
  out: string | undefined;
  html: string | undefined;
  compare: string | undefined;
  minAccuracy: number | undefined;
  prices: string | undefined;
  site: string | undefined;
  timeoutSeconds: number;
}

export class UsageError extends Error {}

/** Where `npm start` serves the API unless PORT says otherwise. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:3000';

export const USAGE = `Usage: xt eval --dataset <dir> [options]

  --dataset <dir>        schema.json, cases/<case>.<ext>, expected/<case>.json
  --base-url <url>       the service's root URL (default ${DEFAULT_BASE_URL}, npm start's)
  --key <api key>        default: .data/dev-api-key.txt, the key npm start creates
  --model <name>         a model the service serves (xt models lists them; default: the service's)
  --models <a,b,...>     several models in one run, compared side by side
  --instruction <text>   an extra instruction sent with every case
  --citations            ask for citations on every case
  --concurrency <n>      cases in flight at once (default 4)
  --out <report.json>    write the JSON report (and the HTML report beside it)
  --html <report.html>   write the HTML report here instead
  --compare <report.json> list per-field gains and regressions against an earlier report
  --min-accuracy <0-1>   exit 1 when accuracy is below this
  --prices <file.json>   { "<model>": { "input": usd, "output": usd } } per 1M tokens
  --site <origin>        resolves .url cases holding a path, e.g. /article
  --timeout <seconds>    per case (default 600)
`;

export function parseEvalArgs(argv: string[]): EvalArgs {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        dataset: { type: 'string' },
        'base-url': { type: 'string' },
        key: { type: 'string' },
        model: { type: 'string' },
        models: { type: 'string' },
        instruction: { type: 'string' },
        citations: { type: 'boolean', default: false },
        concurrency: { type: 'string' },
        out: { type: 'string' },
        html: { type: 'string' },
        compare: { type: 'string' },
        'min-accuracy': { type: 'string' },
        prices: { type: 'string' },
        site: { type: 'string' },
        timeout: { type: 'string' },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (!values.dataset) throw new UsageError('--dataset is required');
  const concurrency = integer('--concurrency', values.concurrency ?? '4', 1, 64);
  const minAccuracy =
    values['min-accuracy'] === undefined ? undefined : fraction(values['min-accuracy']);
  const baseUrl = values['base-url'] ?? DEFAULT_BASE_URL;
  if (!URL.canParse(baseUrl)) throw new UsageError(`--base-url: not a URL: ${baseUrl}`);
  if (values.site !== undefined && !URL.canParse(values.site)) {
    throw new UsageError(`--site: not a URL: ${values.site}`);
  }
  return {
    dataset: values.dataset,
    baseUrl,
    key: values.key,
    models: modelList(values.model, values.models),
    instruction: values.instruction,
    citations: values.citations,
    concurrency,
    out: values.out,
    html: values.html ?? values.out?.replace(/(\.json)?$/i, '.html'),
    compare: values.compare,
    minAccuracy,
    prices: values.prices,
    site: values.site,
    timeoutSeconds: integer('--timeout', values.timeout ?? '600', 1, 86_400),
  };
}

function modelList(model: string | undefined, models: string | undefined): string[] {
  if (model !== undefined && models !== undefined)
    throw new UsageError('give --model or --models, not both');
  if (model !== undefined) return [model];
  if (models === undefined) return [];
  const list = models.split(',').map((m) => m.trim());
  if (list.some((m) => m === '')) throw new UsageError(`--models: an empty name in ${models}`);
  const twice = list.find((m, i) => list.indexOf(m) !== i);
  if (twice) throw new UsageError(`--models: ${twice} is named twice`);
  return list;
}

function integer(flag: string, text: string, min: number, max: number): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new UsageError(`${flag} must be an integer from ${min} to ${max}, got ${text}`);
  }
  return n;
}

function fraction(text: string): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) {
    throw new UsageError(`--min-accuracy must be a number from 0 to 1, got ${text}`);
  }
  return n;
}
