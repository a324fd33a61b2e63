/** What the container checks need from a Dockerfile: COPY/ADD sources and the CMD. */

export interface CopyInstruction {
  line: number;
  instruction: 'COPY' | 'ADD';
  sources: string[];
  /** `--from=<stage or image>`: the sources are not in the build context. */
  fromStage: boolean;
}

export interface ParsedDockerfile {
  copies: CopyInstruction[];
  /** Exec-form CMD arguments of the last stage, if any. */
  cmd: string[] | undefined;
  /** The last stage's USER (the image's default user), if it sets one. */
  user: string | undefined;
}

/** Joins continuation lines (trailing backslash) and drops comments, keeping line numbers. */
function logicalLines(text: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let current: { line: number; text: string } | undefined;
  text.split('\n').forEach((raw, index) => {
    const trimmed = raw.trim();
    if (current === undefined && (trimmed === '' || trimmed.startsWith('#'))) return;
    const continued = trimmed.endsWith('\\');
    const part = continued ? trimmed.slice(0, -1) : trimmed;
    current = current
      ? { line: current.line, text: `${current.text} ${part}` }
      : { line: index + 1, text: part };
    if (!continued) {
      out.push(current);
      current = undefined;
    }
  });
  if (current) out.push(current);
  return out;
}

function execForm(rest: string): string[] | undefined {
  if (!rest.startsWith('[')) return undefined;
  try {
    const parsed: unknown = JSON.parse(rest);
    return Array.isArray(parsed) && parsed.every((x) => typeof x === 'string') ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export function parseDockerfile(text: string): ParsedDockerfile {
  const copies: CopyInstruction[] = [];
  let cmd: string[] | undefined;
  let user: string | undefined;
  for (const { line, text: instructionText } of logicalLines(text)) {
    const match = /^(\w+)(\s[\s\S]*)$/.exec(instructionText);
    if (!match) continue;
    const keyword = (match[1] ?? '').toUpperCase();
    const rest = (match[2] ?? '').trim();
    if (keyword === 'FROM') {
      cmd = undefined;
      user = undefined;
    }
    if (keyword === 'USER') user = rest;
    if (keyword === 'CMD') cmd = execForm(rest);
    if (keyword !== 'COPY' && keyword !== 'ADD') continue;
    const words = rest.split(/\s+/);
    const flags = words.filter((w) => w.startsWith('--'));
    const args =
      execForm(words.filter((w) => !w.startsWith('--')).join(' ')) ??
      words.filter((w) => !w.startsWith('--'));
    copies.push({
      line,
      instruction: keyword,
      sources: args.slice(0, -1),
      fromStage: flags.some((f) => f.startsWith('--from=')),
    });
  }
  return { copies, cmd, user };
}
