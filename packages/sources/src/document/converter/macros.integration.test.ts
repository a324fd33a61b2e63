/**
 * Macros never run (docs/security.md#document-converter-isolation). The document's Basic macros
 * are bound to its opening, exporting and closing events and write a file each when they run.
 * The control: the same LibreOffice, asked over its API to load the document with macro
 * execution allowed (as a desktop user who enabled macros would open it), runs them and leaves
 * the files. The service's converter converts the same file and leaves none.
 */
import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { macroDocument, SOFFICE } from '@xt/testkit/fixtures';
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
const CONTROL = `Sub Convert(inUrl As String, outUrl As String)
  Dim load(1) As New com.sun.star.beans.PropertyValue
  load(0).Name = "Hidden"
  load(0).Value = False
  load(1).Name = "MacroExecutionMode"
  load(1).Value = 4
  Dim doc As Object
  doc = StarDesktop.loadComponentFromURL(inUrl, "_blank", 0, load())
  Dim store(0) As New com.sun.star.beans.PropertyValue
  store(0).Name = "FilterName"
  store(0).Value = "writer_pdf_Export"
  doc.storeToURL(outUrl, store())
  doc.close(True)
End Sub
`;

async function controlRun(input: string, output: string): Promise<void> {
  const profile = path.join(dir, 'control-profile');
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
  const escaped = CONTROL.replaceAll('&', '&amp;').replaceAll('<', '&lt;');
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
