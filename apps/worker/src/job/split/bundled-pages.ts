import { traitsOf, type SourceType } from '@xt/contract';

/**
 * The bundle's pages a split's child holds, when its own file is a PDF cut from the bundle
 * (docs/split.md): read with the bundle's page numbers, whole or in windows, and never taken
 * from or kept in preparations, which number pages from 1. None for any other row, nor for an
 * image bundle's child, which is the image itself.
 */
export function bundledPages<P>(row: {
  sourceType: SourceType;
  pages?: P | null | undefined;
}): P | undefined {
  return traitsOf(row.sourceType).drawnAs === 'pdf' ? (row.pages ?? undefined) : undefined;
}
