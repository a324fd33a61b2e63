import pTimeout from 'p-timeout';
import type { CDPSession } from 'playwright-core';
import { snapshotExpression, type PageSnapshot } from '../markdown/index.ts';

/**
 * Runs the extractor in an isolated world of the main frame: it shares the DOM but not the
 * page's globals, so a page that overrides `Array.prototype.join` or `getComputedStyle` cannot
 * bend or break what is read from it.
 */
async function evaluateIsolated(cdp: CDPSession, script: string): Promise<PageSnapshot | null> {
  const tree = await cdp.send('Page.getFrameTree');
  const world = await cdp.send('Page.createIsolatedWorld', {
    frameId: tree.frameTree.frame.id,
    worldName: 'xt-extract',
  });
  const reply = await cdp.send('Runtime.evaluate', {
    expression: script,
    contextId: world.executionContextId,
    returnByValue: true,
  });
  if (reply.exceptionDetails) return null;
  return (reply.result.value as PageSnapshot | undefined) ?? null;
}

async function evaluateOnce(
  cdp: CDPSession,
  script: string,
  ms: number,
): Promise<PageSnapshot | null> {
  // A hung evaluate settles only when the context closes; its late rejection is expected then.
  return pTimeout(evaluateIsolated(cdp, script), {
    milliseconds: Math.max(0, ms),
    fallback: () => null,
  }).catch(() => null);
}

/**
 * Reads the rendered page as Markdown by `until` even when its main thread never idles.
 *
 * Page scripts are switched off first so the DOM holds still while it is read. A page busy in
 * a script loop cannot run the extractor, so when the first attempt hangs the running script is
 * killed with `Runtime.terminateExecution` (handled off the main thread, unlike everything else)
 * and the extractor is queued right behind the kill; a page that immediately re-enters a loop
 * from a timer is killed again. Null when nothing could be read by the deadline.
 */
export async function capturePage(
  cdp: CDPSession,
  opts: { until: number; maxChars: number; pageScript: string },
): Promise<PageSnapshot | null> {
  const script = snapshotExpression(opts.pageScript, opts.maxChars);
  const remaining = (): number => opts.until - Date.now();
  void cdp.send('Emulation.setScriptExecutionDisabled', { value: true }).catch(() => undefined);
  const first = await evaluateOnce(cdp, script, Math.min(1000, Math.max(250, remaining() / 3)));
  if (first) return first;
  while (remaining() > 0) {
    await cdp.send('Runtime.terminateExecution').catch(() => undefined);
    const snapshot = await evaluateOnce(cdp, script, Math.min(500, Math.max(100, remaining())));
    if (snapshot) return snapshot;
  }
  return null;
}
