/**
 * Reads an answer the output limit cut off: which containers were still open, how many of their
 * children were complete, and the value made of the complete children only.
 *
 * Hand-written rather than a partial-JSON library: those repair the cut text (closing a string
 * mid-word, keeping half an array element), while continuing an answer needs exactly the
 * elements the model finished, and where the first unfinished one starts.
 */

/** One container still open where the answer stops, outermost first. */
export interface OpenContainer {
  kind: 'object' | 'array';
  /** JSON Pointer into the answer as written */
  pointer: string;
  /** children written completely */
  complete: number;
}

export interface PartialAnswer {
  open: OpenContainer[];
  /**
   * The answer with every open container closed after its last complete child, the unfinished
   * rest dropped from `open[index]` inwards; undefined when no container was opened at all.
   */
  closeAt(index: number): unknown;
}

interface Frame extends OpenContainer {
  /** index just past the last complete child (or the opening bracket) */
  end: number;
  key: string | undefined;
  expectKey: boolean;
  /** a number or literal is being written; it is complete only once a delimiter follows */
  scalarEnd: number | undefined;
}

export function readPartialAnswer(text: string): PartialAnswer {
  const stack: Frame[] = [];
  let inString = false;
  let escaped = false;
  let stringStart = 0;

  const childCompleted = (end: number) => {
    const top = stack.at(-1);
    if (!top) return;
    top.complete += 1;
    top.end = end;
    top.scalarEnd = undefined;
  };
  const childPointer = (): string => {
    const top = stack.at(-1);
    if (!top) return '';
    const token = top.kind === 'array' ? String(top.complete) : escapeToken(top.key ?? '');
    return `${top.pointer}/${token}`;
  };

  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') {
        inString = false;
        const top = stack.at(-1);
        if (top?.kind === 'object' && top.expectKey) {
          top.key = JSON.parse(text.slice(stringStart, i + 1)) as string;
        } else childCompleted(i + 1);
      }
      continue;
    }
    switch (ch) {
      case '"':
        inString = true;
        stringStart = i;
        break;
      case '{':
      case '[':
        stack.push({
          kind: ch === '{' ? 'object' : 'array',
          pointer: childPointer(),
          complete: 0,
          end: i + 1,
          key: undefined,
          expectKey: ch === '{',
          scalarEnd: undefined,
        });
        break;
      case '}':
      case ']': {
        const top = stack.at(-1);
        if (top?.scalarEnd !== undefined) childCompleted(top.scalarEnd);
        stack.pop();
        childCompleted(i + 1);
        break;
      }
      case ',': {
        const top = stack.at(-1);
        if (top?.scalarEnd !== undefined) childCompleted(top.scalarEnd);
        if (top?.kind === 'object') top.expectKey = true;
        break;
      }
      case ':': {
        const top = stack.at(-1);
        if (top) top.expectKey = false;
        break;
      }
      default:
        if (ch !== undefined && !/\s/.test(ch)) {
          const top = stack.at(-1);
          if (top) top.scalarEnd = i + 1;
        }
    }
  }

  return {
    open: stack.map(({ kind, pointer, complete }) => ({ kind, pointer, complete })),
    closeAt(index) {
      const frame = stack[index];
      if (!frame) return undefined;
      let closed = text.slice(0, frame.end);
      for (let j = index; j >= 0; j -= 1) closed += stack[j]?.kind === 'object' ? '}' : ']';
      return JSON.parse(closed) as unknown;
    },
  };
}

function escapeToken(token: string): string {
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}
