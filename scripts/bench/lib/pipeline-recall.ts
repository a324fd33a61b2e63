/**
 * Pipeline recall per shipped data set: `xt eval` against `npm start` with the model stand-in in
 * oracle mode (docs/evaluation.md). Measured by hand, not by `npm run bench` (it needs the whole
 * service running); kept here so that rewriting docs/benchmarks.md keeps it. Measure again with
 * the commands in docs/evaluation.md#pipeline-recall and update the figures and the date.
 */
export const PIPELINE_RECALL = `## Pipeline recall

What the service loses before the model sees a document: each shipped data set run with
\`npm run -s eval\` against \`npm start\`, the model stand-in in oracle mode (it copies only the
labelled values and table rows that reached it; images are read with tesseract). Goal: 100%.
Measured 2026-11-25; the DOCX, email and XLSX sets 2026-11-28 (how:
[evaluation.md](evaluation.md#pipeline-recall)).

| Data set | Cases | Leaves matched | Pipeline recall | Array recall | Cause of any loss |
| --- | ---: | ---: | ---: | ---: | --- |
| invoices-text (text-layer PDFs) | 8 | 216 / 216 | 100.0% | 42 / 42 lines | — |
| invoices-scanned (rotated, noisy JPEG scans), gpt-4.1 | 8 | 209 / 216 | 96.8% | 41 / 42 lines | the image reaches the model at 768 px wide (gpt-4.1's own limit at detail high), where OCR misreads a few small figures (12 → 2, a dropped row, "USD."); the full-size scans read perfectly |
| statements (25, 100, 500 and 2,000 rows) | 4 | 10,512 / 10,512 | 100.0% | 2,625 / 2,625 rows | — (2,000 rows pass the 32,768-token output limit and come back whole through continuation) |
| webpages of the test site (article, product, table) | 3 | 31 / 31 | 100.0% | 7 / 7 items | — |
| invoices-docx (DOCX written by LibreOffice, items in a Word table) | 12 | 292 / 292 | 100.0% | 55 / 55 lines | — (run at \`--concurrency 4\` on the shared 2-core machine at load average 43, 2 of the 12 conversions passed \`CONVERT_TIMEOUT_MS\` (60 s) and failed \`TIMEOUT\`, uncharged; run again one at a time, all 12 completed) |
| invoices-email (the invoices-text PDFs attached; 2 of 8 forwarded inside an attached message) | 8 | 216 / 216 | 100.0% | 42 / 42 lines | — |
| price-lists (XLSX of 25, 200 and 2,000 rows) | 3 | 13,350 / 13,350 | 100.0% | 2,225 / 2,225 rows | — (2,000 rows reach the model in windows of at most 200 rows, each under the header row again, and come back whole) |
`;
