import { afterEach, describe, expect, it, vi } from 'vitest';
import { printBanner } from '../../server/src/banner';
import { EnvError, parseEnv } from '../../server/src/config/env';

const refusal = (env: Record<string, string>) => {
  try {
    parseEnv(env);
  } catch (error) {
    if (error instanceof EnvError) return error.message;
    throw error;
  }
  return undefined;
};

describe('the environment, read at start', () => {
  it('counts an empty or blank value as unset (the default applies)', () => {
    expect(parseEnv({ PORT: '', DB_POOL_MAX: '   ', LOG_LEVEL: '\t' })).toMatchObject({
      PORT: 3000,
      DB_POOL_MAX: 20,
      LOG_LEVEL: 'info',
    });
  });

  it('says in plain words what a number must be', () => {
    expect(refusal({ PORT: 'abc' })).toBe('Invalid environment variable PORT: must be a whole number from 0 to 65535');
    expect(refusal({ PORT: '1.5' })).toBe('Invalid environment variable PORT: must be a whole number from 0 to 65535');
    expect(refusal({ PORT: '70000' })).toBe('Invalid environment variable PORT: must be at most 65535');
    expect(refusal({ RATE_LIMIT_PER_MINUTE: 'many' })).toBe(
      'Invalid environment variable RATE_LIMIT_PER_MINUTE: must be a whole number of at least 1',
    );
    expect(refusal({ DB_POOL_MAX: '0' })).toBe('Invalid environment variable DB_POOL_MAX: must be at least 1');
  });

  it('refuses an ADMIN_TOKEN with a space in it, which no Authorization header could carry', () => {
    expect(refusal({ ADMIN_TOKEN: 'admin token with spaces' })).toBe(
      'Invalid environment variable ADMIN_TOKEN: must not contain spaces',
    );
    expect(parseEnv({ ADMIN_TOKEN: '5f0c2a9e1b7d4c3a8e6f0b2d9c4a7e1f' }).ADMIN_TOKEN).toBe(
      '5f0c2a9e1b7d4c3a8e6f0b2d9c4a7e1f',
    );
  });

  it('refuses an ADMIN_TOKEN shorter than 32 characters or with little entropy', () => {
    expect(refusal({ ADMIN_TOKEN: 'admin-token-0123456789' })).toMatch(
      /^Invalid environment variable ADMIN_TOKEN: must be at least 32 characters/,
    );
    for (const weak of [
      'a'.repeat(40),
      'ab'.repeat(20),
      'admin-admin-admin-admin-admin-admin',
      'password1234password1234password',
    ]) {
      expect(refusal({ ADMIN_TOKEN: weak }), weak).toMatch(
        /^Invalid environment variable ADMIN_TOKEN: is too predictable/,
      );
    }
  });
});

describe('the start banner', () => {
  afterEach(() => vi.restoreAllMocks());

  it('writes an IPv6 host in brackets, so the printed URLs work', () => {
    const written: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation(
      (chunk: string | Uint8Array) => written.push(String(chunk)) > 0,
    );
    printBanner({ host: '::', port: 3000, embedded: false, demo: undefined, demoExists: false });
    printBanner({ host: '127.0.0.1', port: 3001, embedded: false, demo: undefined, demoExists: false });
    expect(written.join('')).toContain('Gatehouse API listening on http://[::]:3000/v1');
    expect(written.join('')).toContain('Gatehouse API listening on http://127.0.0.1:3001/v1');
  });

  it('names the console on every start, at the public URL when there is one', () => {
    const written: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation(
      (chunk: string | Uint8Array) => written.push(String(chunk)) > 0,
    );
    printBanner({ host: '127.0.0.1', port: 3000, embedded: false, demo: undefined, demoExists: true });
    printBanner({
      host: '0.0.0.0',
      port: 3000,
      embedded: false,
      demo: undefined,
      demoExists: true,
      publicUrl: 'https://gh.example.com',
    });
    expect(written.join('')).toContain('Console: http://127.0.0.1:3000/console ');
    expect(written.join('')).toContain('Console: https://gh.example.com/console ');
  });
});
