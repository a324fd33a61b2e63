import { createServer, type Server } from 'node:http';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DatasetError, loadDataset } from './dataset.ts';
import { runEval } from './index.ts';

let dir: string;
let dataset: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'xt-dataset-test-'));
  dataset = path.join(dir, 'set');
  await mkdir(path.join(dataset, 'cases'), { recursive: true });
  await mkdir(path.join(dataset, 'expected'));
  await writeFile(
    path.join(dataset, 'schema.json'),
    JSON.stringify({ name: 'Note', structure: { type: 'object', properties: {} } }),
  );
  await addCase('one.txt', 'Total 1');
  await writeFile(path.join(dir, 'outside-secret.txt'), 'TOP SECRET');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function addCase(file: string, text?: string, linkTo?: string): Promise<void> {
  const at = path.join(dataset, 'cases', file);
  if (linkTo !== undefined) await symlink(linkTo, at);
  else await writeFile(at, text ?? '');
  const name = path.basename(file, path.extname(file));
  await writeFile(path.join(dataset, 'expected', `${name}.json`), '{}');
}

describe('a data set whose cases link elsewhere', () => {
  it('keeps links that stay inside cases/, by their real path', async () => {
    await addCase('again.txt', undefined, 'one.txt');
    const loaded = await loadDataset(dataset);
    expect(loaded.cases.map((c) => c.name)).toEqual(['again', 'one']);
    expect(loaded.cases[0]!.file).toBe(loaded.cases[1]!.file);
  });

  it.each([
    ['a relative link up and out', '../../outside-secret.txt'],
    ['an absolute link', () => path.join(dir, 'outside-secret.txt')],
    ['a link to another part of the data set', '../schema.json'],
  ])('refuses %s', async (_, target) => {
    await addCase('two.txt', undefined, typeof target === 'string' ? target : target());
    await expect(loadDataset(dataset)).rejects.toThrow(
      new DatasetError(
        "cases/two.txt links outside the data set's cases/ folder; copy the source in instead",
      ),
    );
  });

  it('refuses a cases/ folder that is itself a link out of the data set', async () => {
    const elsewhere = path.join(dir, 'elsewhere');
    await mkdir(elsewhere);
    await writeFile(path.join(elsewhere, 'one.txt'), 'Total 1');
    await rm(path.join(dataset, 'cases'), { recursive: true });
    await symlink(elsewhere, path.join(dataset, 'cases'));
    await expect(loadDataset(dataset)).rejects.toThrow(/cases links out of the data set/);
  });

  it('says a dangling link is not a readable file', async () => {
    await addCase('gone.txt', undefined, 'nothing-here.txt');
    await expect(loadDataset(dataset)).rejects.toThrow('cases/gone.txt is not a readable file');
  });

  it('xt eval exits 2 naming the link, and sends the service nothing', async () => {
    await addCase('two.txt', undefined, '../../outside-secret.txt');
    const requests: string[] = [];
    const service: Server = createServer((req, res) => {
      requests.push(`${req.method} ${req.url}`);
      res.writeHead(500).end();
    });
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    const { port } = service.address() as { port: number };
    let stderr = '';
    try {
      const code = await runEval(
        ['--dataset', dataset, '--base-url', `http://127.0.0.1:${port}`, '--key', 'sk_test'],
        {
          stdout: { write: () => true, isTTY: false },
          stderr: { write: (chunk: string) => ((stderr += chunk), true), isTTY: false },
          cwd: dir,
        },
      );
      expect(code).toBe(2);
    } finally {
      await new Promise((resolve) => service.close(resolve));
    }
    expect(stderr).toBe(
      "xt eval: cases/two.txt links outside the data set's cases/ folder; copy the source in instead\n",
    );
    expect(requests).toEqual([]);
  });
});

describe('a data set of office files and emails', () => {
  it('sends each as the kind that reads it', async () => {
    for (const file of ['invoice.docx', 'prices.xlsx', 'mail.eml']) await addCase(file, 'x');
    const loaded = await loadDataset(dataset);
    expect(loaded.cases.map((c) => [c.name, c.type])).toEqual([
      ['invoice', 'document'],
      ['mail', 'email'],
      ['one', 'text'],
      ['prices', 'spreadsheet'],
    ]);
  });
});

describe('a data set of delimited tables', () => {
  it('sends them as spreadsheets, as xt extract and the service read them', async () => {
    for (const file of ['prices.csv', 'rates.tsv', 'legacy.xls']) await addCase(file, 'a,b');
    const loaded = await loadDataset(dataset);
    expect(loaded.cases.map((c) => [c.name, c.type])).toEqual([
      ['legacy', 'spreadsheet'],
      ['one', 'text'],
      ['prices', 'spreadsheet'],
      ['rates', 'spreadsheet'],
    ]);
  });
});
