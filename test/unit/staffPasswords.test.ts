import { describe, expect, it } from 'vitest';
import { scopes } from '../../shared/src/schemas/admin';
import { Password, roleScopes } from '../../shared/src/schemas/staff';
import { hashPassword, isCommonPassword, verifyPassword } from '../../server/src/auth/password';

describe('passwords', () => {
  it('12 to 256 characters of anything, spaces and emoji included', () => {
    expect(Password.safeParse('a'.repeat(11)).success).toBe(false);
    expect(Password.safeParse('🙂 '.repeat(6)).success).toBe(true);
    expect(Password.safeParse('x'.repeat(256)).success).toBe(true);
    expect(Password.safeParse('x'.repeat(257)).success).toBe(false);
  });

  it('the 10,000 most common passwords are known, in any case', () => {
    expect(isCommonPassword('password')).toBe(true);
    expect(isCommonPassword('Unbelievable')).toBe(true);
    expect(isCommonPassword('correct horse battery staple 7')).toBe(false);
  });

  it('a hash verifies its password only, with a salt of its own each time', async () => {
    const first = await hashPassword('a long and unusual passphrase');
    const second = await hashPassword('a long and unusual passphrase');
    expect(first).not.toBe(second);
    expect(first).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(await verifyPassword('a long and unusual passphrase', first)).toBe(true);
    expect(await verifyPassword('a long and unusual passphrase!', first)).toBe(false);
    expect(await verifyPassword('a long and unusual passphrase', null)).toBe(false);
  });
});

describe('roles', () => {
  it('an owner has every scope; reception cannot write vehicles; security cannot write check-ins', () => {
    expect([...roleScopes.owner].sort()).toEqual([...scopes].sort());
    expect(roleScopes.reception).not.toContain('vehicles:write');
    expect(roleScopes.security).not.toContain('checkins:write');
    expect(roleScopes.manager).not.toContain('users:manage');
    expect(roleScopes.manager).not.toContain('webhooks:manage');
  });
});
