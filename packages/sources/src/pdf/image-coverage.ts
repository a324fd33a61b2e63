import { OPS, type PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';

type Matrix = [number, number, number, number, number, number];
const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

function multiply(m: Matrix, n: readonly number[]): Matrix {
  const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = n;
  return [
    m[0] * a + m[2] * b,
    m[1] * a + m[3] * b,
    m[0] * c + m[2] * d,
    m[1] * c + m[3] * d,
    m[0] * e + m[2] * f + m[4],
    m[1] * e + m[3] * f + m[5],
  ];
}

const unitSquareArea = (m: Matrix) => Math.abs(m[0] * m[3] - m[1] * m[2]);
const numbers = (v: unknown): number[] | undefined =>
  Array.isArray(v) && v.every((x) => typeof x === 'number') ? v : undefined;

const SINGLE_IMAGE_OPS: ReadonlySet<number> = new Set([
  OPS.paintImageXObject,
  OPS.paintInlineImageXObject,
  OPS.paintImageMaskXObject,
  OPS.paintSolidColorImageMask,
]);
const GROUPED_IMAGE_OPS: ReadonlySet<number> = new Set([
  OPS.paintInlineImageXObjectGroup,
  OPS.paintImageMaskXObjectGroup,
]);

/**
 * Share of the page (0–1) covered by raster images, from the page's drawing operations: every
 * image is drawn into the unit square under the current transform, so its area on the page is
 * that transform's determinant. Overlaps count twice; the result is capped at 1. Cheap next to
 * rendering: the operator list is what rendering would build first anyway.
 */
export async function imageCoverage(page: PDFPageProxy): Promise<number> {
  const { fnArray, argsArray } = await page.getOperatorList();
  const [x1 = 0, y1 = 0, x2 = 0, y2 = 0] = page.view;
  const pageArea = Math.abs((x2 - x1) * (y2 - y1)) || 1;
  const stack: Matrix[] = [];
  let ctm = IDENTITY;
  let area = 0;
  fnArray.forEach((fn, i) => {
    const args: unknown = argsArray[i];
    const list = Array.isArray(args) ? (args as unknown[]) : [];
    if (fn === OPS.save) stack.push(ctm);
    else if (fn === OPS.restore) ctm = stack.pop() ?? ctm;
    else if (fn === OPS.transform) ctm = multiply(ctm, numbers(list) ?? IDENTITY);
    else if (fn === OPS.paintFormXObjectBegin) {
      stack.push(ctm);
      ctm = multiply(ctm, numbers(list[0]) ?? IDENTITY);
    } else if (fn === OPS.paintFormXObjectEnd) ctm = stack.pop() ?? ctm;
    else if (SINGLE_IMAGE_OPS.has(fn) || GROUPED_IMAGE_OPS.has(fn)) area += unitSquareArea(ctm);
    else if (fn === OPS.paintImageXObjectRepeat) {
      // args: image id, scale x, scale y, flat list of positions (x, y pairs)
      const [, sx, sy, positions] = list;
      const scale = typeof sx === 'number' && typeof sy === 'number' ? Math.abs(sx * sy) : 1;
      const count = Array.isArray(positions) ? positions.length / 2 : 1;
      area += unitSquareArea(ctm) * scale * count;
    }
  });
  return Math.min(1, area / pageArea);
}
