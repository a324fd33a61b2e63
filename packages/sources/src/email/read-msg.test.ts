import { composeEmail, craftedMsg, type CraftedMsgLies } from '@xt/testkit/fixtures';
import { failureOf } from '@xt/testkit';
import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../webpage/markdown/html.ts';
import { readMessage } from './read-message.ts';

const limits = { maxParts: 200, html: (h: string) => htmlToMarkdown(h).markdown };

/** How long reading took and how many buffer bytes were still held right after. */
async function measured<T>(work: () => Promise<T>) {
  const before = process.memoryUsage().arrayBuffers;
  const started = performance.now();
  const outcome = await work().then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  return {
    ...outcome,
    ms: performance.now() - started,
    grew: process.memoryUsage().arrayBuffers - before,
  };
}

// Hand-made files whose compound structure lies (packages/testkit/src/fixtures/crafted-msg.ts):
// msgreader used to allocate what they declare and follow their loops for as long as asked.
describe('an Outlook message claiming more than its file holds', () => {
  it('reads the honest file the lies are made from', async () => {
    const message = await readMessage(craftedMsg(), 'msg', limits);
    expect(message.headers.subject).toBe('Crafted message');
    expect(message.body).toContain('Pay 12.00 by Friday.');
  });

  it.each<[string, CraftedMsgLies]>([
    ['a body of 32 MiB in a 6.5 KB file', { bodySize: 32 * 2 ** 20 }],
    ['a body whose chain loops', { bodySize: 6000, bodyLoops: true }],
    ['a subject whose small-sector chain loops', { subjectLoops: true }],
  ])('refuses %s as unreadable, quickly and without allocating it', async (_, lies) => {
    const file = craftedMsg(lies);
    const read = await measured(() => failureOf(readMessage(file, 'msg', limits)));
    expect(read).toMatchObject({ value: { code: 'SOURCE_UNREADABLE' } });
    expect(read.ms).toBeLessThan(2000);
    expect(read.grew).toBeLessThan(4 * 2 ** 20);
  });

  it('lists such a message attached to an email as damaged, and reads the rest', async () => {
    const email = await composeEmail({
      from: 'ap@example.com',
      subject: 'Invoice',
      text: { content: 'See the attached message.' },
      attachments: [
        {
          filename: 'forwarded.msg',
          type: 'application/vnd.ms-outlook',
          content: craftedMsg({ bodySize: 32 * 2 ** 20 }),
        },
      ],
    });
    const read = await measured(() => readMessage(email, 'eml', limits));
    expect(read.grew).toBeLessThan(4 * 2 ** 20);
    const message = (read as { value: Awaited<ReturnType<typeof readMessage>> }).value;
    expect(message.body.trim()).toBe('See the attached message.');
    // Recognising the attachment already checks its structure: it is never opened as a message.
    expect(message.attachments[0]).toMatchObject({
      name: 'forwarded.msg',
      format: null,
      found: expect.stringMatching(
        /^a damaged OLE compound file \(entry 2 declares 33554432 bytes, more than the whole file\)$/,
      ),
    });
    expect(message.attachments[0]!.message).toBeUndefined();
  });
});
