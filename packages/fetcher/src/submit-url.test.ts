import { describe, expect, it } from 'vitest';
import { checkSubmittedUrl } from './submit-url.ts';
import { parseAllowlist } from './allowlist.ts';

/** Literal addresses in every notation a URL can carry, all pointing somewhere private. */
const REFUSED: readonly string[] = [
  'http://127.0.0.1/',
  'http://2130706433/',
  'http://0x7f000001/',
  'http://0x7f.1/',
  'http://0x7F.0x00.0x00.0x01/',
  'http://0177.0.0.1/',
  'http://017700000001/',
  'http://127.1/',
  'http://127.0.1/',
  'http://127.0.0.1.:8080/',
  'http://0/',
  'http://0.0.0.0/',
  'http://10.1/',
  'http://0xa9fea9fe/',
  'http://169.254.169.254/latest/meta-data/',
  'http://3232235777/',
  'http://100.64.0.1/',
  'http://224.0.0.1/',
  'http://255.255.255.255/',
  'http://[::1]/',
  'http://[::]/',
  'http://[0:0:0:0:0:0:0:1]/',
  'http://[::ffff:127.0.0.1]/',
  'http://[::ffff:7f00:1]/',
  'http://[0:0:0:0:0:ffff:127.0.0.1]/',
  'http://[::127.0.0.1]/',
  'http://[::ffff:0:127.0.0.1]/',
  'http://[64:ff9b::127.0.0.1]/',
  'http://[64:ff9b:1::1]/',
  'http://[2002:7f00:1::]/',
  'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/',
  'http://[2001:db8::1]/',
  'http://[100::1]/',
  'http://[fc00::1]/',
  'http://[fd00::1]:8080/',
  'http://[fe80::1]/',
  'http://[fec0::1]/',
  'http://[ff02::1]/',
  'https://localhost/',
  'http://LOCALHOST./',
  'http://api.localhost/',
  'http://printer.local/',
  'http://metadata.google.internal/',
  'http://router.home.arpa/',
];

const ACCEPTED: readonly string[] = [
  'https://example.com/report.pdf',
  'http://8.8.8.8/',
  'http://134744072/',
  'http://[2606:4700:4700::1111]/',
  'http://[::ffff:8.8.8.8]/',
  'https://example.com:8443/a?b=c#d',
  'https://localhost.example.com/',
];

describe('checkSubmittedUrl', () => {
  it('covers at least 25 non-public address forms', () => {
    expect(REFUSED.length).toBeGreaterThanOrEqual(25);
  });

  it.each(REFUSED)('refuses %s', (url) => {
    expect(checkSubmittedUrl(url)).toMatch(/non-public|local host/);
  });

  it.each(ACCEPTED)('accepts %s', (url) => {
    expect(checkSubmittedUrl(url)).toBeNull();
  });

  it('relies on WHATWG parsing to canonicalise every IPv4 spelling', () => {
    for (const form of ['2130706433', '0x7f.1', '0177.0.0.1', '127.1', '0x7f000001']) {
      expect(new URL(`http://${form}/`).hostname).toBe('127.0.0.1');
    }
    expect(new URL('http://[::ffff:127.0.0.1]/').hostname).toBe('[::ffff:7f00:1]');
  });

  it.each([
    ['not a url', /absolute/],
    ['/relative/path', /absolute/],
    ['ftp://example.com/file.pdf', /absolute/],
    ['file:///etc/passwd', /absolute/],
    ['javascript:alert(1)', /absolute/],
    ['data:text/html,hi', /absolute/],
    ['https://user:pass@example.com/', /credentials/],
    ['https://user@example.com/', /credentials/],
    [`https://example.com/${'a'.repeat(2048)}`, /2048/],
  ])('refuses %j', (url, message) => {
    expect(checkSubmittedUrl(url)).toMatch(message);
  });

  it('accepts a URL of exactly 2048 characters', () => {
    const base = 'https://example.com/';
    expect(checkSubmittedUrl(base + 'a'.repeat(2048 - base.length))).toBeNull();
  });

  it('lets an allow-listed fixture server through, and only that one', () => {
    const allowlist = parseAllowlist('127.0.0.1:4010');
    expect(checkSubmittedUrl('http://127.0.0.1:4010/doc.pdf', allowlist)).toBeNull();
    expect(checkSubmittedUrl('http://2130706433:4010/doc.pdf', allowlist)).toBeNull();
    expect(checkSubmittedUrl('http://127.0.0.1:4011/doc.pdf', allowlist)).not.toBeNull();
    expect(checkSubmittedUrl('http://127.0.0.1/doc.pdf', allowlist)).not.toBeNull();
  });

  it('takes localhost for 127.0.0.1 under the allow-list', () => {
    const allowlist = parseAllowlist('127.0.0.1:4010');
    expect(checkSubmittedUrl('http://localhost:4010/doc.pdf', allowlist)).toBeNull();
    expect(checkSubmittedUrl('http://LOCALHOST.:4010/doc.pdf', allowlist)).toBeNull();
    expect(checkSubmittedUrl('http://api.localhost:4010/doc.pdf', allowlist)).toBeNull();
    expect(checkSubmittedUrl('http://localhost:4011/doc.pdf', allowlist)).not.toBeNull();
    expect(checkSubmittedUrl('http://printer.local:4010/', allowlist)).not.toBeNull();
  });

  it('names the setting that would allow a refused place', () => {
    expect(checkSubmittedUrl('http://127.0.0.1:4010/')).toBe(
      "must not point to a non-public address (loopback address 127.0.0.1), unless the service's SOURCE_ALLOWLIST names it",
    );
    expect(checkSubmittedUrl('http://localhost/', undefined, 'WEBHOOK_ALLOWLIST')).toBe(
      "must not point to a local host name (localhost), unless the service's WEBHOOK_ALLOWLIST names it",
    );
  });

  it('lets a CIDR entry cover literal hosts inside it', () => {
    const allowlist = parseAllowlist('10.0.0.0/8, localhost');
    expect(checkSubmittedUrl('http://10.2.3.4/', allowlist)).toBeNull();
    expect(checkSubmittedUrl('http://localhost:3000/', allowlist)).toBeNull();
    expect(checkSubmittedUrl('http://11.0.0.1/', allowlist)).toBeNull();
    expect(checkSubmittedUrl('http://192.168.0.1/', allowlist)).not.toBeNull();
  });
});
