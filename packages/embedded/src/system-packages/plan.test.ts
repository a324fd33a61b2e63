import { describe, expect, it } from 'vitest';
import { planInstall } from './plan.ts';

const missing = ['redis-server', 'chromium', 'fonts-dejavu-core'];

describe('planInstall', () => {
  it('does nothing when nothing is missing', () => {
    expect(planInstall({ missing: [], privilege: 'none', hasAptGet: true })).toEqual({
      action: 'nothing',
    });
  });

  it('installs with apt-get directly as root, saying what it installs', () => {
    const plan = planInstall({ missing, privilege: 'root', hasAptGet: true });
    expect(plan.action).toBe('install');
    if (plan.action !== 'install') return;
    expect(plan.commands).toEqual([
      ['env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'update', '-qq'],
      [
        'env',
        'DEBIAN_FRONTEND=noninteractive',
        'apt-get',
        'install',
        '-y',
        '-qq',
        '--no-install-recommends',
        ...missing,
      ],
    ]);
    expect(plan.announcement).toContain('redis-server chromium fonts-dejavu-core');
  });

  it('installs through sudo -n when sudo needs no password', () => {
    const plan = planInstall({ missing: ['chromium'], privilege: 'sudo', hasAptGet: true });
    if (plan.action !== 'install') throw new Error(`expected install, got ${plan.action}`);
    for (const command of plan.commands) expect(command.slice(0, 2)).toEqual(['sudo', '-n']);
    expect(plan.announcement).toContain('sudo apt-get install -y chromium');
  });

  it('without root or sudo, stops with the exact command to run', () => {
    const plan = planInstall({ missing, privilege: 'none', hasAptGet: true });
    expect(plan).toMatchObject({ action: 'instruct', missing });
    if (plan.action !== 'instruct') return;
    expect(plan.message).toContain(
      'sudo apt-get install -y redis-server chromium fonts-dejavu-core',
    );
  });

  it('without apt-get, names the packages even as root', () => {
    const plan = planInstall({ missing: ['redis-server'], privilege: 'root', hasAptGet: false });
    expect(plan.action).toBe('instruct');
    if (plan.action !== 'instruct') return;
    expect(plan.message).toContain('no apt-get');
    expect(plan.message).toContain('redis-server');
  });
});
