import type { GroundingSource } from '@xt/contract';
import { describe, expect, it } from 'vitest';
import { scanDates } from './dates.ts';
import { locateValue } from './index.ts';

const text = (content: string): GroundingSource => ({ kind: 'text', content });

describe('locateValue: dates', () => {
  const written: [string, string][] = [
    ['Issued 5 March 2024.', '5 March 2024'],
    ['Issued March 5, 2024.', 'March 5, 2024'],
    ['Issued Mar. 5th 2024', 'Mar. 5th 2024'],
    ['Issued 5 Mar 2024', '5 Mar 2024'],
    ['Issued 5th of March, 2024', '5th of March, 2024'],
    ['Issued 05-Mar-2024', '05-Mar-2024'],
    ['Ausgestellt am 5. März 2024', '5. März 2024'],
    ['Émise le 5 mars 2024', '5 mars 2024'],
    ['Emitida el 5 de marzo de 2024', '5 de marzo de 2024'],
    ['Issued 05.03.2024', '05.03.2024'],
    ['Issued 2024/03/05', '2024/03/05'],
    ['Issued 05/03/2024', '05/03/2024'],
    ['Issued 03/05/2024', '03/05/2024'],
    ['Issued 5/3/24', '5/3/24'],
  ];
  it.each(written)('2024-03-05 is found in %j', (content, quote) => {
    const located = locateValue('2024-03-05', text(content));
    expect(located).toMatchObject({ quote, how: 'normalised' });
    expect(content.slice(located!.start!, located!.end!)).toBe(quote);
  });

  it('finds a written date from a value written another way', () => {
    expect(locateValue('March 5, 2024', text('Date: 2024-03-05'))?.quote).toBe('2024-03-05');
    expect(locateValue('5 Mar 2024', text('Date: 05.03.2024'))?.quote).toBe('05.03.2024');
  });

  it('reads dotted dates day first and a field over 12 as the day', () => {
    expect(locateValue('2024-05-03', text('Issued 05.03.2024'))).toBeNull();
    expect(locateValue('2024-03-25', text('Issued 03/25/2024'))?.quote).toBe('03/25/2024');
    expect(locateValue('2024-03-25', text('Issued 25/03/2024'))?.quote).toBe('25/03/2024');
    expect(locateValue('2024-12-03', text('Issued 25/03/2024'))).toBeNull();
  });

  it('prefers a date that reads one way over one that reads both ways', () => {
    const content = 'Ordered 05/03/2024, shipped 5 March 2024';
    expect(locateValue('2024-03-05', text(content))?.quote).toBe('5 March 2024');
  });

  it('rejects impossible dates and other days', () => {
    expect(locateValue('2024-03-06', text('Issued 5 March 2024'))).toBeNull();
    const found: string[] = [];
    scanDates(
      '31/02/2024, 2023-02-29, 2024-02-29, 1 Smarch 2024, 12 March 99, 12 March 1999',
      (o) => found.push(o.iso),
    );
    expect(found).toEqual(['2024-02-29', '1999-03-12']);
  });
});
