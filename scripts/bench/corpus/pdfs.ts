/** The PDFs of the token section: a report and a statement table, with their facts. */
import { mixedPdf } from '@xt/testkit/fixtures';

export interface CorpusPdf {
  name: string;
  bytes: Buffer;
  pages: number;
  facts: string[];
}

export async function corpusPdfs(): Promise<CorpusPdf[]> {
  const report = [
    'Annual report 2025 of the Port Elsby Harbour Authority.\nRevenue from port dues was 18.4 million euros, up 6 percent on 2024.\nThe authority handled 2,315 vessel calls and 41,200 passengers.',
    'Capital projects.\nThe tidal barrier tender opens on 3 March 2026. The dredging of the north channel finished in September at a cost of 2.9 million euros.',
    'Staff and governance.\nThe authority employed 214 people at year end. The board met eleven times; the chair is Miriam Okafor.',
  ];
  const lines = Array.from({ length: 30 }, (_, i) => {
    const day = String((i % 28) + 1).padStart(2, '0');
    return `2025-03-${day}  Invoice INV-${7100 + i}  Supplier ${['Nordlys AS', 'Baltic Freight', 'Helios Energy'][i % 3]}  ${(120 + i * 17.35).toFixed(2)} EUR`;
  });
  const statement = [
    `Account statement, March 2025. Account number 4471-0098.\n${lines.slice(0, 15).join('\n')}`,
    `${lines.slice(15).join('\n')}\nClosing balance 12,904.77 EUR.`,
  ];
  return [
    {
      name: 'annual report (3 text pages)',
      bytes: await mixedPdf(report.map((text) => ({ text }))),
      pages: report.length,
      facts: [
        '18.4 million euros',
        '2,315 vessel calls',
        '3 March 2026',
        '2.9 million euros',
        '214 people',
        'Miriam Okafor',
      ],
    },
    {
      name: 'statement table (2 text pages)',
      bytes: await mixedPdf(statement.map((text) => ({ text }))),
      pages: statement.length,
      facts: [
        '4471-0098',
        'INV-7100',
        'INV-7129',
        'Helios Energy',
        '120.00 EUR',
        '623.15 EUR',
        '12,904.77 EUR',
      ],
    },
  ];
}
