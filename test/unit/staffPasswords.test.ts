import { describe, expect, it } from 'vitest';
import { scopes } from '../../shared/src/schemas/admin';
import { Password, roleScopes } from '../../shared/src/schemas/staff';
import { hashPassword, needsRehash, verifyPassword } from '../../server/src/auth/password';
import { passwordWeakness } from '../../server/src/auth/passwordStrength';
import { hashWithEarlierParameters } from '../support/staff';

const owner = { email: 'ada.lovelace@example.com', name: 'Ada Lovelace', accountName: 'Analytical Engines' };

describe('passwords', () => {
  it('12 to 256 characters of anything, spaces and emoji included', () => {
    expect(Password.safeParse('a'.repeat(11)).success).toBe(false);
    expect(Password.safeParse('🙂 '.repeat(6)).success).toBe(true);
    expect(Password.safeParse('x'.repeat(256)).success).toBe(true);
    expect(Password.safeParse('x'.repeat(257)).success).toBe(false);
  });

  // The audit's reproductions (issue 31): each of these was accepted.
  it.each(['password1234', 'aaaaaaaaaaaa', ' '.repeat(12), 'qwertyuiopas', '1qaz2wsx3edc', 'Password123!'])(
    'refuses %j in plain words',
    (password) => {
      expect(passwordWeakness(password, owner)).toMatch(/[A-Z][a-z].*\./);
    },
  );

  it("refuses the user's own email, name and account name, in any case and spacing", () => {
    expect(passwordWeakness('ADA.LOVELACE@example.com', owner)).toMatch(/your email, your name/);
    expect(passwordWeakness('ada  lovelace', { ...owner, name: 'Ada Lovelace' })).toBeDefined();
    expect(passwordWeakness('Analytical Engines', owner)).toMatch(/account’s name/);
    expect(passwordWeakness('ada.lovelace@example.com!', owner)).toBeDefined();
  });

  it('accepts a long unusual phrase', () => {
    expect(passwordWeakness('correct horse battery staple 7', owner)).toBeUndefined();
    expect(passwordWeakness('a long and unusual passphrase', owner)).toBeUndefined();
  });

  it('a hash verifies its password only, with a salt of its own each time', async () => {
    const first = await hashPassword('a long and unusual passphrase');
    const second = await hashPassword('a long and unusual passphrase');
    expect(first).not.toBe(second);
    // OWASP's scrypt setting N = 2^15, r = 8, p = 3 (equal to its N = 2^17, p = 1 minimum).
    expect(first).toMatch(/^scrypt\$32768\$8\$3\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(needsRehash(first)).toBe(false);
    expect(await verifyPassword('a long and unusual passphrase', first)).toBe(true);
    expect(await verifyPassword('a long and unusual passphrase!', first)).toBe(false);
    expect(await verifyPassword('a long and unusual passphrase', null)).toBe(false);
  });

  it('a hash of the earlier parameters (p = 1) still verifies, and is due for an upgrade', async () => {
    const earlier = hashWithEarlierParameters('a long and unusual passphrase');
    expect(needsRehash(earlier)).toBe(true);
    expect(await verifyPassword('a long and unusual passphrase', earlier)).toBe(true);
    expect(await verifyPassword('a long and unusual passphrase?', earlier)).toBe(false);
  });
});

describe('roles', () => {
  it('an owner has every scope; reception cannot write vehicles; security cannot write check-ins', () => {
    // Every scope but the kiosks' own (issue 31): staff are not kiosks.
    expect([...roleScopes.owner].sort()).toEqual(scopes.filter((scope) => !scope.startsWith('kiosk:')).sort());
    expect(roleScopes.reception).not.toContain('vehicles:write');
    expect(roleScopes.security).not.toContain('checkins:write');
    expect(roleScopes.manager).not.toContain('users:manage');
    expect(roleScopes.manager).not.toContain('webhooks:manage');
  });
});
