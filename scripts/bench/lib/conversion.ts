/**
 * Document conversion: the worker's converter beside a bare `soffice --convert-to pdf` and a
 * LibreOffice kept running between files. Measured by hand with scripts/bench/converter.ts (it
 * starts LibreOffice some hundred times, too long for `npm run bench`); kept here so that
 * rewriting docs/benchmarks.md keeps it. Measure again with the command below and update the
 * figures, the date and the load.
 */
export const CONVERSION = `## Document conversion

\`nice -n 10 npx tsx scripts/bench/converter.ts --files 2 --rounds 1\`, 2026-11-28 00:40–00:57
UTC, on the shared 2-core machine at a load average of 35 to 47 (other sessions' tests and CI),
so the absolute times are those of a starved process; compare the rows. DOCX reports of four
pages each, written by LibreOffice, converted one at a time:

| Converter | Pages/s | Per file, median (ms) | LibreOffice peak RSS (MiB) | Converting Node process peak RSS (MiB) |
| --- | --: | --: | --: | --: |
| bare \`soffice --headless --convert-to pdf\` (one profile kept between runs, no isolation) | 0.03 | 53,961 | 212 | 273 |
| the service's converter (fresh profile, own network and PID namespaces, \`nobody\`, prlimit) | 0.06 | 59,734 | 211 | 273 |
| one LibreOffice kept running (\`--accept\`, files loaded and exported over UNO) | 1.26 | 1,069 (after a 175 s start, once) | 212 | 273 |

- The service's converter and a bare \`soffice\` are within this machine's noise of each other
  (the bare run's first file, on a cold cache, took 225 s): both start LibreOffice per file, and
  the start is nearly all of the time.
- A LibreOffice kept running converts a file some fifty times faster on this machine, because
  it starts once; at the same peak RSS. Why the worker keeps the fresh one anyway:
  [decisions.md](decisions.md#documents-one-fresh-libreoffice-per-file).
- Peak worker RSS while converting: the worker's own process does not grow with a conversion
  (LibreOffice is a child process; the converted PDF is read afterwards as any PDF is); the
  LibreOffice process peaks at about 210 MiB for these files, under the 3 GiB address-space
  bound (\`CONVERT_MAX_MEMORY_MB\`).
`;
