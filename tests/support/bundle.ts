/**
 * One small bundle the client tests split (docs/split.md): five pages the model stand-in
 * classifies by their titles, so what each client answers can be told exactly. A cover letter
 * of no class (`other`), a two-page invoice whose second page's title names no class (it
 * continues the invoice), a contract and a second invoice.
 */
import { textPdf } from '@xt/testkit/fixtures';

export const BUNDLE_PAGES = [
  'Cover letter\nDear Sir, please find our papers enclosed.',
  'INVOICE\nInvoice number: INV-1\nTotal: 12.50',
  'Terms of payment\nPay within 30 days.',
  'CONTRACT\nBetween ACME Ltd and Bob Smith.',
  'INVOICE\nInvoice number: INV-2\nTotal: 7',
];

/** The documents the stand-in finds in it with classes `invoice` and `contract`, in page order. */
export const BUNDLE_DOCUMENTS = [
  { class: 'other', pages: { from: 1, to: 1 } },
  { class: 'invoice', pages: { from: 2, to: 3 } },
  { class: 'contract', pages: { from: 4, to: 4 } },
  { class: 'invoice', pages: { from: 5, to: 5 } },
];

export function bundlePdf(): Promise<Buffer> {
  return textPdf(BUNDLE_PAGES);
}
