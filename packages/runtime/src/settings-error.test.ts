import { describe, expect, it } from 'vitest';
import { listenFailure, SettingsError } from './settings-error.ts';

const failure = (code: string) => Object.assign(new Error(`listen ${code}`), { code });

describe('listenFailure', () => {
  it('names the address, the reason and the setting to change, in one line', () => {
    const error = listenFailure(
      failure('EADDRINUSE'),
      'the API',
      { host: '127.0.0.1', port: 3000 },
      'set PORT to a free port',
    );
    expect(error).toBeInstanceOf(SettingsError);
    expect(error.message).toBe(
      'the API cannot listen on 127.0.0.1:3000: another process listens there; set PORT to a free port',
    );
    const v6 = listenFailure(failure('EACCES'), 'x', { host: '::1', port: 80 }, 'set PORT');
    expect(v6.message).toBe(
      'x cannot listen on [::1]:80: this user may not listen there; set PORT',
    );
  });

  it('leaves errors no setting causes as they are', () => {
    const other = failure('EMFILE');
    expect(listenFailure(other, 'x', { host: 'h', port: 1 }, 'set PORT')).toBe(other);
  });
});
