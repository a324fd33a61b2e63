/** Section 13 (office files and email, end to end) run as a child, turned into table rows. */
import { runChild } from '../lib/child.ts';
import type { Plan } from '../lib/plan.ts';
import type { Results } from '../lib/report.ts';
import type { OfficeResult } from './office.ts';

export async function measureOffice(
  plan: Plan,
  results: Results,
  log: (line: string) => void,
): Promise<void> {
  log('§13 office files and email');
  const { result: o } = await runChild<OfficeResult>(
    'scripts/bench/sections/office.ts',
    ['--reps', String(plan.reps)],
    log,
  );
  const { sheet, email } = o;
  results.addWithTarget(
    {
      section: '13',
      measure: `Tokens sent, ${sheet.rows.toLocaleString('en')}-row price list (XLSX), its source text (${sheet.returned.toLocaleString('en')}/${sheet.rows.toLocaleString('en')} rows back)`,
      unit: 'tokens',
      decimals: 0,
      service: [sheet.sourceTokens],
      baseline: [sheet.csvTokens],
      baselineName: '(the sheet as CSV)',
    },
    'every row back',
    () => sheet.returned === sheet.rows,
  );
  results.add({
    section: '13',
    measure: `Email with a PDF, a DOCX and an XLSX attached: synchronous create to answer (${email.found}/${email.facts} invoice fields back)`,
    unit: 'ms',
    decimals: 0,
    service: email.ms,
    baseline: email.separateMs,
    baselineName: '(the 3 files, one after another)',
  });
  results.add({
    section: '13',
    measure: `Email with a PDF, a DOCX and an XLSX attached: tokens sent (${email.calls} model call${email.calls === 1 ? '' : 's'})`,
    unit: 'tokens',
    decimals: 0,
    service: [email.tokens],
    baseline: [email.separateTokens],
    baselineName: `(the 3 files, ${email.separateCalls} calls)`,
  });
  results.note(
    `§13: one API and one worker process against the model stand-in in oracle mode answering at once (so times leave out a model's latency), a new account per measurement so nothing is reused. The sheet's figure counts the source text of its ${sheet.calls} model call${sheet.calls === 1 ? '' : 's'} once each (every token sent, instructions and repeats included: ${sheet.promptTokens.toLocaleString('en')}); the CSV is the same sheet saved by LibreOffice, values as shown. Email tokens are every token of every call (text with o200k_base, images by OpenAI's formula for gpt-4.1).`,
  );
}
