import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** A text run in PDF user space, shaped like pdf.js text content items. */
export interface UserSpaceRun {
  str: string;
  dir: string;
  /** [a, b, c, d, e, f]: font size on the diagonal, baseline origin in e, f. */
  transform: number[];
  width: number;
}

interface WidgetData {
  subtype?: unknown;
  fieldType?: unknown;
  fieldValue?: unknown;
  rect?: unknown;
  checkBox?: unknown;
  radioButton?: unknown;
  buttonValue?: unknown;
  exportValue?: unknown;
  hidden?: unknown;
  password?: unknown;
}

/** What a filled-in field shows, as text; nothing for empty, hidden or password fields. */
export function widgetValue(w: WidgetData): string | undefined {
  if (w.subtype !== 'Widget' || w.hidden === true || w.password === true) return undefined;
  const value = w.fieldValue;
  switch (w.fieldType) {
    case 'Tx':
      return typeof value === 'string' && value.trim() !== '' ? value : undefined;
    case 'Ch': {
      const chosen = (Array.isArray(value) ? value : [value]).filter(
        (v): v is string => typeof v === 'string' && v !== '',
      );
      return chosen.length > 0 ? chosen.join(', ') : undefined;
    }
    case 'Btn':
      if (w.checkBox === true)
        return value !== undefined && value === w.exportValue ? '[x]' : '[ ]';
      if (w.radioButton === true)
        return value !== undefined && value === w.buttonValue ? '(x)' : '( )';
      return undefined;
    default:
      return undefined;
  }
}

/**
 * Filled-in form fields as text runs placed where the field sits on the page. Field values
 * live in annotations, not in the page's text layer, so without this a filled form read as
 * text would lose every answer; placed by position, each value lands on its label's line.
 */
export async function formFieldRuns(page: PDFPageProxy): Promise<UserSpaceRun[]> {
  const annotations = (await page.getAnnotations({ intent: 'display' })) as WidgetData[];
  const runs: UserSpaceRun[] = [];
  for (const annotation of annotations) {
    const value = widgetValue(annotation);
    const rect = annotation.rect;
    if (value === undefined || !Array.isArray(rect) || rect.length !== 4) continue;
    const [x1, y1, x2, y2] = (rect as number[]).map(Number) as [number, number, number, number];
    const size = Math.max(1, Math.min(12, 0.7 * Math.abs(y2 - y1)));
    const left = Math.min(x1, x2);
    let baseline = Math.max(y1, y2) - size * 1.2;
    for (const line of value.split(/\r\n|\r|\n/)) {
      runs.push({
        str: line,
        dir: 'ltr',
        transform: [size, 0, 0, size, left + 2, baseline],
        width: line.length * size * 0.5,
      });
      baseline -= size * 1.2;
    }
  }
  return runs;
}
