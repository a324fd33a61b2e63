import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/** What the Debian packages are needed for: `npm start`, `npm test`, or `.ci/run`. */
export type Purpose = 'start' | 'test' | 'ci';

/** A Debian package, with how to tell it is there without asking dpkg (much faster). */
export interface SystemPackage {
  name: string;
  /** An absolute file, or a bare command looked up on PATH the way a spawn would. */
  probe: string;
  why: string;
  purposes: readonly Purpose[];
}

/**
 * Every Debian package the service, its tests and CI use. The one list: the launcher, the test
 * global setup and `.ci/run` all read it.
 */
export const SYSTEM_PACKAGES: readonly SystemPackage[] = [
  {
    name: 'redis-server',
    probe: 'redis-server',
    why: 'the embedded Redis (when REDIS_URL is unset); the Redis Cluster test starts its own nodes',
    purposes: ['start', 'test', 'ci'],
  },
  {
    name: 'chromium',
    probe: '/usr/bin/chromium',
    why: 'renders webpage sources (unless CHROMIUM_PATH names another)',
    purposes: ['start', 'test', 'ci'],
  },
  {
    name: 'fonts-dejavu-core',
    probe: '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
    why: 'text in pages and scans rasterises with real glyphs',
    purposes: ['start', 'test', 'ci'],
  },
  {
    // Without a CJK font LibreOffice draws Japanese, Chinese and Korean as one missing glyph
    // (empty boxes in previews; the text is kept only as each glyph's ActualText).
    name: 'fonts-noto-cjk',
    probe: '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
    why: 'Japanese, Chinese and Korean text in documents is laid out and drawn with real glyphs (Noto Sans and Serif CJK)',
    purposes: ['start', 'test', 'ci'],
  },
  {
    name: 'tesseract-ocr',
    probe: 'tesseract',
    why: 'reads scanned pages and images with OCR to locate cited values (docs/citations.md)',
    purposes: ['start', 'test', 'ci'],
  },
  {
    name: 'tesseract-ocr-eng',
    probe: '/usr/share/tesseract-ocr/5/tessdata/eng.traineddata',
    why: "Tesseract's English model",
    purposes: ['start', 'test', 'ci'],
  },
  {
    name: 'tesseract-ocr-jpn',
    probe: '/usr/share/tesseract-ocr/5/tessdata/jpn.traineddata',
    why: 'the OCR tests read a Japanese scan (OCR_LANGUAGES=jpn); a deployment installs the language packages its OCR_LANGUAGES names',
    purposes: ['test', 'ci'],
  },
  {
    name: 'python3',
    probe: 'python3',
    why: "the Python SDK's unittest suite (clients/python) runs against the service",
    purposes: ['test', 'ci'],
  },
  {
    name: 'python3-build',
    probe: '/usr/lib/python3/dist-packages/build/__init__.py',
    why: "the packaging check builds the Python SDK's sdist (python3 -m build)",
    purposes: ['test', 'ci'],
  },
  {
    name: 'python3-setuptools',
    probe: '/usr/lib/python3/dist-packages/setuptools/__init__.py',
    why: "the Python SDK's build backend, used offline (--no-isolation)",
    purposes: ['test', 'ci'],
  },
  {
    name: 'pgbouncer',
    probe: '/usr/sbin/pgbouncer',
    why: 'the tests run the service through PgBouncer in transaction pooling mode',
    purposes: ['test', 'ci'],
  },
  {
    name: 'postgresql',
    probe: '/usr/bin/pg_ctlcluster',
    why: "CI's PostgreSQL on 127.0.0.1:5432",
    purposes: ['ci'],
  },
  {
    name: 'poppler-utils',
    probe: '/usr/bin/pdftoppm',
    why: 'the benchmark renders PDFs with pdftoppm; the citation tests read where poppler says each word was drawn (pdftotext -bbox)',
    purposes: ['test', 'ci'],
  },
  {
    name: 'libreoffice-writer-nogui',
    probe: '/usr/bin/soffice',
    why: 'lays out word-processing documents (DOCX, DOC, ODT, RTF) as PDFs to read (docs/sources.md#documents); the tests write their office fixtures with it',
    purposes: ['start', 'test', 'ci'],
  },
  {
    name: 'libreoffice-impress-nogui',
    probe: '/usr/lib/libreoffice/program/libsdlo.so',
    why: 'lays out presentations (PPTX, PPT, ODP) and their notes pages as PDFs to read',
    purposes: ['start', 'test', 'ci'],
  },
  {
    name: 'fonts-liberation2',
    probe: '/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf',
    why: 'Arial, Times New Roman and Courier New metrics, so documents break lines and pages where Word does',
    purposes: ['start', 'test', 'ci'],
  },
  {
    name: 'fonts-crosextra-carlito',
    probe: '/usr/share/fonts/truetype/crosextra/Carlito-Regular.ttf',
    why: "Calibri's metrics (Word's default font), for the same reason",
    purposes: ['start', 'test', 'ci'],
  },
  {
    name: 'fonts-crosextra-caladea',
    probe: '/usr/share/fonts/truetype/crosextra/Caladea-Regular.ttf',
    why: "Cambria's metrics, for the same reason",
    purposes: ['start', 'test', 'ci'],
  },
  {
    // Its filter library, not only the application: that is what reads and writes XLS and ODS.
    name: 'libreoffice-calc-nogui',
    probe: '/usr/lib/libreoffice/program/libscfiltlo.so',
    why: 'rewrites XLS and ODS spreadsheets as XLSX for the worker to read (docs/sources.md#spreadsheets); the tests write their XLSX, XLS and ODS fixtures with it',
    purposes: ['start', 'test', 'ci'],
  },
  {
    name: 'python3-openpyxl',
    probe: '/usr/lib/python3/dist-packages/openpyxl/__init__.py',
    why: 'the spreadsheet tests write workbooks LibreOffice does not (rows frozen at the top)',
    purposes: ['test', 'ci'],
  },
  {
    name: 'python3-docx',
    probe: '/usr/lib/python3/dist-packages/docx/__init__.py',
    why: 'the document tests write DOCX files with linked images, templates and OLE objects (python-docx)',
    purposes: ['test', 'ci'],
  },
  {
    name: 'haproxy',
    probe: '/usr/sbin/haproxy',
    why: 'npm run lint:containers checks ops/haproxy/haproxy.cfg with haproxy -c; the TLS test runs the dashboard behind it',
    purposes: ['test', 'ci'],
  },
  {
    name: 'docker-compose',
    probe: 'docker-compose',
    why: 'npm run lint:containers resolves docker-compose.yml with every profile through `docker-compose config` (no engine needed)',
    purposes: ['ci'],
  },
  {
    name: 'ca-certificates',
    probe: '/etc/ssl/certs/ca-certificates.crt',
    why: 'TLS to the model provider and webpages',
    purposes: ['ci'],
  },
];

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function readable(file: string): boolean {
  try {
    accessSync(file, constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

/** Whether a command resolves on PATH (an absolute or relative path is checked as it is). */
export function onPath(command: string, pathVariable: string | undefined): boolean {
  if (command.includes('/')) return executable(command);
  return (pathVariable ?? '')
    .split(path.delimiter)
    .filter((dir) => dir !== '')
    .some((dir) => executable(path.join(dir, command)));
}

/** Whether a package's probe finds it on this machine. */
export function isPresent(pkg: SystemPackage, pathVariable: string | undefined): boolean {
  if (!pkg.probe.startsWith('/')) return onPath(pkg.probe, pathVariable);
  return /^\/usr\/s?bin\//.test(pkg.probe) ? executable(pkg.probe) : readable(pkg.probe);
}

/**
 * The packages a purpose needs in this environment: for `npm start` no Redis when a server is
 * named (tests start their own cluster nodes whatever REDIS_URL says), no Chromium when
 * CHROMIUM_PATH points elsewhere. Off Linux only commands on PATH are looked
 * for (Debian's file paths mean nothing there; the worker falls back to Playwright's Chromium).
 */
export function packagesFor(
  purpose: Purpose,
  env: { REDIS_URL?: string | undefined; CHROMIUM_PATH?: string | undefined },
  platform: NodeJS.Platform = process.platform,
): SystemPackage[] {
  return SYSTEM_PACKAGES.filter((pkg) => {
    if (!pkg.purposes.includes(purpose)) return false;
    if (platform !== 'linux' && pkg.probe.startsWith('/')) return false;
    if (pkg.name === 'redis-server' && env.REDIS_URL && purpose === 'start') return false;
    if (pkg.name === 'chromium' && env.CHROMIUM_PATH) return false;
    return true;
  });
}
