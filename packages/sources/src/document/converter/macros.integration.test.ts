/**
 * Macros never run (docs/security.md#document-converter-isolation). The document's Basic macros
 * are bound to its opening, exporting and closing events and write a file each when they run.
 * The control: the same LibreOffice, asked over its API to load the document with macro
 * execution allowed (as a desktop user who enabled macros would open it), runs them and leaves
 * the files. The service's converter converts the same file and leaves none.
 */
import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { waitFor } from '@xt/testkit';
import { DOCM_MACROS, macroDocument, macroEnabledDocument, SOFFICE } from '@xt/testkit/fixtures';
import { createDocumentConverter } from './converter.ts';

const run = promisify(execFile);

let dir: string;
let traces: string;
let odt: Buffer;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'xt-macros-'));
  // Writable by the unprivileged user the converter runs as, so a macro that ran could write.
  traces = path.join(dir, 'traces');
  await mkdir(traces);
  await chmod(dir, 0o755);
  await chmod(traces, 0o777);
  odt = await macroDocument(traces);
}, 600_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

/**
 * An application macro in a throwaway profile that loads `input` with MacroExecutionMode
 * ALWAYS_EXECUTE_NO_WARN (4), as a visible document would be opened, exports it to PDF and
 * closes it: what the service's converter must never be.
 */
const control = (invoke: string[] = []) => `Sub Convert(inUrl As String, outUrl As String)
  Dim load(1) As New com.sun.star.beans.PropertyValue
  load(0).Name = "Hidden"
  load(0).Value = False
  load(1).Name = "MacroExecutionMode"
  load(1).Value = 4
  Dim doc As Object
  doc = StarDesktop.loadComponentFromURL(inUrl, "_blank", 0, load())
${invoke.map((url) => `  doc.getScriptProvider().getScript("${url}").invoke(Array(), Array(), Array())\n`).join('')}  Dim store(0) As New com.sun.star.beans.PropertyValue
  store(0).Name = "FilterName"
  store(0).Value = "writer_pdf_Export"
  doc.storeToURL(outUrl, store())
  doc.close(True)
End Sub
`;

async function controlRun(input: string, output: string, invoke: string[] = []): Promise<void> {
  const profile = path.join(dir, `control-profile-${path.basename(input)}`);
  const soffice = (...args: string[]) =>
    run(
      SOFFICE,
      [`-env:UserInstallation=file://${profile}`, '--headless', '--norestore', ...args],
      { timeout: 600_000, env: { ...process.env, HOME: dir } },
      // LibreOffice may abort on its way out after the macro returned: what counts is what the
      // macro did.
    ).catch(() => undefined);
  // A first start writes the profile, with an empty Module1 in the application's Standard
  // library (it would overwrite one written before); the control macro then replaces it.
  await soffice('--terminate_after_init');
  const escaped = control(invoke).replaceAll('&', '&amp;').replaceAll('<', '&lt;');
  await writeFile(
    path.join(profile, 'user', 'basic', 'Standard', 'Module1.xba'),
    `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE script:module PUBLIC "-//OpenOffice.org//DTD OfficeDocument 1.0//EN" "module.dtd">\n<script:module xmlns:script="http://openoffice.org/2000/script" script:name="Module1" script:language="StarBasic">${escaped}</script:module>\n`,
  );
  await soffice(`macro:///Standard.Module1.Convert("file://${input}","file://${output}")`);
}

it('the service converts a document whose macros a user who allowed them would run, and none runs', async () => {
  const converter = createDocumentConverter({
    memoryMb: 2048,
    timeoutMs: 600_000,
    concurrency: 1,
    environment: process.env,
  });
  const pdf = await converter.convertToPdf(odt, 'odt', {});
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(await readdir(traces)).toEqual([]);

  // The control: the same file, opened with macro execution allowed, runs them.
  const input = path.join(dir, 'macros.odt');
  await writeFile(input, odt);
  await controlRun(input, path.join(dir, 'control.pdf'));
  expect(await readdir(dir)).toContain('control.pdf');
  const ran = await readdir(traces);
  expect(ran).toEqual(expect.arrayContaining(['office-view-created', 'office-copy-to']));
}, 900_000);

/*
 * A DOCM's VBA project (Word's AutoOpen, AutoExec, AutoClose, Document_Open, Document_Close, each
 * requesting a canary server with curl). LibreOffice imports it as Basic in VBA mode; the
 * converter shares the worker's network here, so only the profile's macro settings stand between
 * a macro and the canary. In the control, opening the file visibly with execution allowed does not
 * fire Word's open and close macros in LibreOffice 7.4 headless, so the control then calls each
 * imported macro as a desktop user could: each reaches the canary, which shows the file's macros
 * are live code the conversion could have run.
 */
it('the service converts a DOCM whose VBA macros would reach a canary, and none does', async () => {
  const hits: string[] = [];
  const canary = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
  try {
    const origin = `http://127.0.0.1:${(canary.address() as AddressInfo).port}`;
    const docm = await macroEnabledDocument(origin);
    for (const network of ['shared', 'isolated'] as const) {
      const converter = createDocumentConverter({
        memoryMb: 2048,
        timeoutMs: 600_000,
        concurrency: 1,
        environment: process.env,
        network,
      });
      const pdf = await converter.convertToPdf(docm, 'docx', {});
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    }
    expect(hits).toEqual([]);

    const input = path.join(dir, 'macros.docm');
    await writeFile(input, docm);
    await controlRun(
      input,
      path.join(dir, 'control-docm.pdf'),
      Object.keys(DOCM_MACROS).map(
        (name) => `vnd.sun.star.script:Project.${name}?language=Basic&location=document`,
      ),
    );
    expect(await readdir(dir)).toContain('control-docm.pdf');
    // Basic's Shell does not wait for curl.
    await waitFor(() => hits.length >= Object.keys(DOCM_MACROS).length, 30_000).catch(
      () => undefined,
    );
    expect([...hits].sort()).toEqual(
      Object.values(DOCM_MACROS)
        .map((p) => `/${p}`)
        .sort(),
    );
  } finally {
    canary.close();
  }
}, 900_000);
