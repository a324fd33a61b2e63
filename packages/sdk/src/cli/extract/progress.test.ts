import { describe, expect, it } from 'vitest';
import { Progress, render } from './progress.ts';

function stream(isTTY: boolean) {
  const chunks: string[] = [];
  return {
    chunks,
    isTTY,
    write(chunk: string) {
      chunks.push(chunk);
      return true;
    },
  } as unknown as NodeJS.WritableStream & { isTTY: boolean; chunks: string[] };
}

const tally = { total: 10, completed: 3, failed: 1, running: 2, skipped: 2 };

describe('progress', () => {
  it('fills the bar by the share of all inputs done, those skipped as already written included', () => {
    const line = render(tally);
    expect(line).toContain('6/10');
    expect(line).toContain('✓ 3  ✗ 1  running 2  (2 already in the output)');
    expect(line.match(/█/g)).toHaveLength(18);
  });

  it('shows a resumed run with nothing left as all of its inputs done, never "0/0"', () => {
    const line = render({ total: 2, completed: 0, failed: 0, running: 0, skipped: 2 });
    expect(line).toContain('2/2');
    expect(line).toContain('(2 already in the output)');
    expect(line).not.toContain('0/0');
    expect(render({ total: 3, completed: 0, failed: 0, running: 0, skipped: 0 })).toContain('0/3');
  });

  it('redraws one line in place on a terminal, and only summarises elsewhere', () => {
    const tty = stream(true);
    const bar = new Progress(tty, { ...tally });
    bar.draw();
    bar.tally.completed++;
    bar.draw();
    bar.finish();
    expect(tty.chunks.slice(0, 2).every((c) => c.startsWith('\r'))).toBe(true);
    expect(tty.chunks.at(-1)).toBe('4 completed, 1 failed, 2 already in the output\n');

    const pipe = stream(false);
    const quiet = new Progress(pipe, { ...tally });
    quiet.draw();
    quiet.finish();
    expect(pipe.chunks).toEqual(['3 completed, 1 failed, 2 already in the output\n']);
  });
});

describe('pages of running extractions', () => {
  it('shows the pages the running extractions report, summed, and forgets those that ended', () => {
    const bar = new Progress(stream(false), { ...tally });
    bar.pages('a.pdf', { pagesDone: 12, pagesTotal: 240 });
    bar.pages('b.pdf', { pagesDone: 3, pagesTotal: 10 });
    expect(render(bar.tally)).toContain('pages 15/250');
    bar.pages('a.pdf', undefined);
    expect(render(bar.tally)).toContain('pages 3/10');
    bar.pages('b.pdf', undefined);
    expect(render(bar.tally)).not.toContain('pages');
  });
});
