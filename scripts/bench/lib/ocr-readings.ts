/**
 * How often a value found on a scan is right, by confidence: `scripts/bench/ocr-reliability.ts`
 * over datasets/invoices-scanned, at the scans' own size and shrunk. Measured by hand, not by
 * `npm run bench` (about a minute and a half a run, most of it Tesseract); kept here so that
 * rewriting docs/benchmarks.md keeps it. Measure again with the commands below and update the
 * figures, the date, and the same table in docs/citations.md.
 */
export const OCR_READINGS = `## OCR readings: how often "found" is right

Each scan of \`datasets/invoices-scanned\` prepared as the worker prepares an image with
citations, answered by the model stand-in in oracle mode (it answers from its own Tesseract
reading of the image it is sent, at the model's size: its misreads are a model's misreads), the
answer grounded, and each value found compared with the data set's. Measured 2026-12-06 with
\`npx tsx --conditions=@xt/source scripts/bench/ocr-reliability.ts [--scale 0.5]\` (\`--verbose\`
lists every value found wrong); what the figures mean:
[citations.md](citations.md#how-grounding-works) ("OCR readings").

| Found values, by \`confidence\` | Scans as they are | Shrunk to 0.5× | Shrunk to 0.4× |
| ----------------------------- | ----------------- | -------------- | -------------- |
| 0–0.5                         | none              | 0 of 1         | 4 of 9 (44%)   |
| 0.5–0.8                       | 4 of 4            | 30 of 32 (94%) | 34 of 49 (69%) |
| 0.8–0.9                       | 4 of 4            | 45 of 45       | 29 of 41 (71%) |
| 0.9–1                         | 189 of 190        | 91 of 91       | 32 of 32       |
| \`reading: "uncertain"\`        | 2 of 2            | 13 of 16 (81%) | 28 of 47 (60%) |
| other values found            | 195 of 196        | 153 of 153     | 71 of 84 (85%) |
| all values found              | 197 of 198        | 166 of 169     | 99 of 131      |
| values not found (right)      | 12 of 14          | 13 of 19       | 10 of 21       |
`;
