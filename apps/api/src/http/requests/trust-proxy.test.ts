import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { trustProxySetting } from './trust-proxy.ts';

/** The address Express sees for a request from loopback carrying X-Forwarded-For. */
async function clientAddress(setting: string, forwardedFor: string): Promise<string> {
  const app = express();
  app.set('trust proxy', trustProxySetting.parse(setting));
  app.get('/', (req, res) => {
    res.send(req.ip);
  });
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const { port } = server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/`, {
      headers: { 'x-forwarded-for': forwardedFor },
    });
    return await res.text();
  } finally {
    server.close();
  }
}

describe('TRUST_PROXY', () => {
  it('parses booleans and hop counts, keeps address lists', () => {
    expect(trustProxySetting.parse('1')).toBe(1);
    expect(trustProxySetting.parse('false')).toBe(false);
    expect(trustProxySetting.parse(undefined)).toBe('loopback');
    expect(trustProxySetting.parse('loopback, 10.0.0.0/8, fd00::/8')).toBe(
      'loopback, 10.0.0.0/8, fd00::/8',
    );
  });

  it('names the entries it cannot use', () => {
    const result = trustProxySetting.safeParse('loopback,proxy.internal,10.0.0.0/33');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toContain('proxy.internal, 10.0.0.0/33');
  });

  it('one hop: the address the load balancer appended, not one the client wrote', async () => {
    expect(await clientAddress('1', '6.6.6.6, 203.0.113.7')).toBe('203.0.113.7');
  });

  it('false: the peer itself, whatever the header says', async () => {
    expect(await clientAddress('false', '203.0.113.7')).toBe('127.0.0.1');
  });
});
