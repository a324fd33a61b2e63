import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { loadMcpConfig } from './config.ts';

const TOKEN = 'a'.repeat(32);
const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];

describe('loadMcpConfig', () => {
  it.each(['0.0.0.0', '::', '10.1.2.3', 'mcp.internal'])(
    'refuses --http on %s without a token',
    (host) => {
      expect(() => loadMcpConfig(['--http', '--host', host], {})).toThrow(
        `--host ${host} is reachable from other machines: set XT_MCP_TOKEN`,
      );
    },
  );

  it('takes the token from XT_MCP_TOKEN or --token, and refuses a short one', () => {
    expect(loadMcpConfig(['--http', '--host', '0.0.0.0'], { XT_MCP_TOKEN: TOKEN })).toMatchObject({
      token: TOKEN,
      tokenGenerated: false,
    });
    expect(loadMcpConfig(['--http', '--host', '::', '--token', TOKEN], {}).token).toBe(TOKEN);
    expect(() => loadMcpConfig(['--http'], { XT_MCP_TOKEN: 'short' })).toThrow(
      'at least 32 characters',
    );
  });

  it('makes up a token on loopback when none is given: HTTP never goes without one', () => {
    const one = loadMcpConfig(['--http'], {});
    const two = loadMcpConfig(['--http', '--host', '::1'], {});
    expect(one.tokenGenerated).toBe(true);
    expect(one.token.length).toBeGreaterThanOrEqual(32);
    expect(two.token).not.toBe(one.token);
  });

  it("answers only this machine's Host names, and those added", () => {
    const local = loadMcpConfig(['--http'], {});
    expect(local.allowedHosts).toEqual(LOOPBACK);
    const lan = loadMcpConfig(['--http', '--host', '10.1.2.3', '--token', TOKEN], {});
    expect(lan.allowedHosts).toEqual([...LOOPBACK, '10.1.2.3']);
    const every = loadMcpConfig(['--http', '--host', '0.0.0.0'], {
      XT_MCP_TOKEN: TOKEN,
      XT_MCP_ALLOWED_HOSTS: 'MCP.example.com, ',
    });
    expect(every.allowedHosts).toEqual(
      expect.arrayContaining([...LOOPBACK, os.hostname().toLowerCase(), 'mcp.example.com']),
    );
    expect(every.allowedHosts).not.toContain('attacker.example');
    const v6 = loadMcpConfig(['--http', '--allowed-host', 'fd00::7'], {});
    expect(v6.allowedHosts).toContain('[fd00::7]');
    expect(() => loadMcpConfig(['--http', '--allowed-host', 'a.example:80'], {})).toThrow(
      'not a host name: a.example:80',
    );
  });

  it('confines files over HTTP to a root: the working folder unless --files-root names one', () => {
    expect(loadMcpConfig(['--http'], {})).toMatchObject({ allowFiles: false });
    expect(loadMcpConfig(['--http', '--allow-files'], {}).filesRoot).toBe('.');
    expect(
      loadMcpConfig(['--http', '--allow-files', '--files-root', '/srv/in'], {}).filesRoot,
    ).toBe('/srv/in');
    expect(() => loadMcpConfig(['--http', '--files-root', '/srv/in'], {})).toThrow(
      '--files-root names where --allow-files may read: give both',
    );
    // Over stdio the agent's machine is the server's: anywhere, unless a root is given.
    expect(loadMcpConfig([], {})).toMatchObject({ allowFiles: true, filesRoot: undefined });
    expect(loadMcpConfig(['--files-root', 'docs'], {}).filesRoot).toBe('docs');
  });
});
