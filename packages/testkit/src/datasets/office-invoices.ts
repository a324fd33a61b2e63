import { composeEmail, type EmailSpec } from '../fixtures/emails.ts';
import { flatTextDocument, officeFiles } from '../fixtures/office-documents.ts';
import { withFixedEntryTimes } from '../fixtures/zip.ts';
import { invoiceLayout, invoicePdf, type Invoice } from './invoices.ts';

/*
 * The invoices of the PDF data sets as people send them: typed in a word processor and saved as
 * DOCX (by LibreOffice, from a document this module writes), and sent by email with the PDF
 * attached (by Python's MIME composer). The values are written as in the PDFs: labelled lines
 * and a table whose first row names its columns.
 */

/** Each invoice as a DOCX file, keyed by invoice number; one start of LibreOffice for all. */
export async function invoiceDocxFiles(invoices: Invoice[]): Promise<Map<string, Buffer>> {
  const docs = invoices.map((invoice) => {
    const { header, columns, rows, footer } = invoiceLayout(invoice);
    const flatXml = flatTextDocument({
      paragraphs: [{ text: `INVOICE from ${invoice.vendor_name}`, heading: true }, ...header],
      table: [columns, ...rows],
      after: [...footer, 'Payment within 30 days. Thank you for your business.'],
    });
    return { name: invoice.invoice_number, flatXml };
  });
  const files = await officeFiles(docs, 'docx');
  return new Map([...files].map(([name, bytes]) => [name, withFixedEntryTimes(bytes)]));
}

const slug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z]+/g, '-')
    .replace(/-$/, '');

/** The invoice's date at 09:30 UTC, as a mail program writes a `Date` header. */
const sentOn = (day: string) => new Date(`${day}T09:30:00Z`).toUTCString().replace('GMT', '+0000');

/**
 * An email from the vendor with the invoice's PDF attached; with `forwarded`, that email
 * forwarded by a colleague as an attached message (the PDF one level down), as accounts teams
 * receive them.
 */
export async function invoiceEmail(
  invoice: Invoice,
  opts: { forwarded: boolean; seed: number },
): Promise<Buffer> {
  const vendor = `${invoice.vendor_name} <billing@${slug(invoice.vendor_name)}.example>`;
  const accounts = `accounts@${slug(invoice.customer_name)}.example`;
  const original: EmailSpec = {
    from: vendor,
    to: accounts,
    subject: `Invoice ${invoice.invoice_number}`,
    date: sentOn(invoice.invoice_date),
    text: {
      content: `Hello,\n\nplease find our invoice ${invoice.invoice_number} attached.\n\nKind regards,\n${invoice.vendor_name}\n`,
    },
    attachments: [
      {
        filename: `${invoice.invoice_number}.pdf`,
        type: 'application/pdf',
        content: await invoicePdf(invoice),
      },
    ],
  };
  if (!opts.forwarded) return composeEmail({ ...original, seed: opts.seed });
  return composeEmail({
    from: `Sam Reed <sam.reed@${slug(invoice.customer_name)}.example>`,
    to: accounts,
    subject: `Fwd: Invoice ${invoice.invoice_number}`,
    date: sentOn(invoice.invoice_date),
    text: { content: 'For payment, see the message below.\n\nSam\n' },
    attachments: [{ filename: `Invoice ${invoice.invoice_number}.eml`, message: original }],
    seed: opts.seed,
  });
}
