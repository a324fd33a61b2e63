import { describe, expect, it } from 'vitest';
import { classifyIp } from './classify.ts';

/** Every special-purpose range named in the issue, with one address inside it. */
const NON_PUBLIC: readonly string[] = [
  '0.0.0.0',
  '0.1.2.3',
  '10.0.0.1',
  '10.255.255.255',
  '100.64.0.1',
  '100.127.255.254',
  '127.0.0.1',
  '127.255.255.254',
  '169.254.169.254',
  '172.16.0.1',
  '172.31.255.255',
  '192.0.0.8',
  '192.0.2.1',
  '192.88.99.1',
  '192.168.1.1',
  '198.18.0.1',
  '198.19.255.255',
  '198.51.100.7',
  '203.0.113.9',
  '224.0.0.1',
  '239.255.255.250',
  '240.0.0.1',
  '255.255.255.255',
  '::',
  '::1',
  '::7f00:1',
  '::a00:1',
  '::ffff:127.0.0.1',
  '::ffff:7f00:1',
  '::ffff:10.0.0.1',
  '::ffff:169.254.169.254',
  '::ffff:0:7f00:1',
  '::ffff:0:808:808',
  '64:ff9b::7f00:1',
  '64:ff9b::a9fe:a9fe',
  '64:ff9b:1::808:808',
  '100::1',
  '2001::1',
  '2001:0:4136:e378:8000:63bf:3fff:fdd2',
  '2001:2::1',
  '2001:10::1',
  '2001:20::1',
  '2001:db8::1',
  '2002:7f00:1::1',
  '2002:808:808::1',
  'fc00::1',
  'fd12:3456:789a::1',
  'fe80::1',
  'febf::1',
  'fec0::1',
  'ff02::1',
  'ff0e::1',
  '3fff::1',
  '4000::1',
  '1::1',
];

const PUBLIC: readonly string[] = [
  '8.8.8.8',
  '1.1.1.1',
  '93.184.216.34',
  '100.63.255.255',
  '100.128.0.0',
  '172.15.255.255',
  '172.32.0.0',
  '192.0.1.1',
  '198.17.255.255',
  '223.255.255.255',
  '2606:4700:4700::1111',
  '2a00:1450:4001:80b::200e',
  '::ffff:8.8.8.8',
  '64:ff9b::808:808',
];

describe('classifyIp', () => {
  it.each(NON_PUBLIC)('refuses %s', (address) => {
    const verdict = classifyIp(address);
    expect(verdict.public).toBe(false);
    if (!verdict.public) expect(verdict.reason.length).toBeGreaterThan(0);
  });

  it.each(PUBLIC)('accepts %s', (address) => {
    expect(classifyIp(address)).toEqual({ public: true });
  });

  it('accepts a bracketed IPv6 literal', () => {
    expect(classifyIp('[2606:4700:4700::1111]')).toEqual({ public: true });
    expect(classifyIp('[::1]').public).toBe(false);
  });

  it('names the embedded IPv4 range for mapped addresses', () => {
    const verdict = classifyIp('::ffff:127.0.0.1');
    expect(verdict.public ? '' : verdict.reason).toMatch(/loopback/);
  });

  it.each(['0x7f.1', '0177.0.0.1', '2130706433', '127.1', 'localhost', '', 'fe80::1%eth0'])(
    'refuses the non-canonical or non-address input %j',
    (input) => {
      expect(classifyIp(input).public).toBe(false);
    },
  );
});
