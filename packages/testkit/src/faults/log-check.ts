export interface LogProblems {
  /** Lines carrying a stack trace (a JSON `stack`, or raw `at …` frames). */
  stacks: string[];
  /** Lines at level error or above (pino: 50+), or plain text that is not a log line. */
  errors: string[];
  /** Warnings (pino level 40), which an outage should produce once, not per request. */
  warnings: string[];
}

/**
 * Reads a process's pino output: the fault tests expect one structured warning per outage and
 * no stack traces, however many requests or jobs met the fault.
 */
export function logProblems(output: string): LogProblems {
  const problems: LogProblems = { stacks: [], errors: [], warnings: [] };
  for (const line of output.split('\n')) {
    if (line.trim() === '') continue;
    if (/\\n\s+at |^\s+at \S/.test(line) || line.includes('"stack":')) problems.stacks.push(line);
    let level: unknown;
    try {
      level = (JSON.parse(line) as { level?: unknown }).level;
    } catch {
      problems.errors.push(line);
      continue;
    }
    if (typeof level !== 'number') continue;
    if (level >= 50) problems.errors.push(line);
    else if (level >= 40) problems.warnings.push(line);
  }
  return problems;
}
