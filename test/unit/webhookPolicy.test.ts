import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isGlobalUnicast } from '../../server/src/webhooks/addressPolicy';
import {
  STANDARD_RETRY_SCHEDULE_MS,
  type RetryPolicy,
  decideAfterAttempt,
  parseRetryAfter,
  withJitter,
} from '../../server/src/webhooks/retrySchedule';

describe('addresses a webhook may not reach by default: all but global unicast', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.1',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:7f00:1',
    '64:ff9b::10.0.0.1',
    'not-an-ip',
    '::127.0.0.1',
    '::ffff:0:127.0.0.1',
    '::ffff:0:7f00:1',
    '2002:7f00:1::',
    '2002:a00:1::1',
    '64:ff9b::7f00:1',
    '64:ff9b:1::8.8.8.8',
    '2001::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    '100::1',
    '2001:db8::1',
    '3fff::1',
    '5f00::1',
    'fe80::1%eth0',
    '192.0.2.1',
    '198.51.100.1',
    '203.0.113.1',
    '192.88.99.1',
    '192.0.0.1',
    '198.19.255.255',
    '240.0.0.1',
  ])('refuses %s', (address) => {
    expect(isGlobalUnicast(address)).toBe(false);
  });

  it.each([
    '93.184.215.14',
    '8.8.8.8',
    '172.32.0.1',
    '192.169.0.1',
    '100.128.0.1',
    '2606:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::8.8.8.8',
    '2002:808:808::1',
    '2a00:1450:4001::1',
    '192.0.3.1',
    '198.20.0.1',
  ])('allows %s', (address) => {
    expect(isGlobalUnicast(address)).toBe(true);
  });
});

describe('the retry schedule', () => {
  const fixed: RetryPolicy = { scheduleMs: STANDARD_RETRY_SCHEDULE_MS, random: () => 0.5 };
  const now = new Date('2026-11-21T09:00:00.000Z');
  const after = (
    statusCode: number | null,
    retryStep: number,
    extra: { retryAfterMs?: number; finalAttempt?: boolean } = {},
  ) =>
    decideAfterAttempt({
      outcome: { statusCode, retryAfterMs: extra.retryAfterMs },
      retryStep,
      finalAttempt: extra.finalAttempt ?? false,
      now,
      policy: fixed,
    });

  it('is the Standard Webhooks one: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h', () => {
    const hours = (ms: number) => ms / 3_600_000;
    expect(STANDARD_RETRY_SCHEDULE_MS.map(hours)).toEqual([5 / 3600, 5 / 60, 0.5, 2, 5, 10, 14, 20, 24]);
  });

  it('walks the schedule on failures, then gives up', () => {
    let step = 0;
    for (const wait of STANDARD_RETRY_SCHEDULE_MS) {
      const decision = after(500, step);
      expect(decision.status).toBe('pending');
      if (decision.status !== 'pending') return;
      expect(decision.nextAttemptAt.getTime() - now.getTime()).toBe(wait);
      step = decision.retryStep;
    }
    expect(after(500, step)).toEqual({ status: 'failed', result: 'failed', disableSubscription: false });
    expect(after(null, step).status).toBe('failed');
  });

  it('delivers on any 2xx; a 410 fails and disables; a 3xx is a failure like any other', () => {
    for (const code of [200, 201, 202, 204, 299])
      expect(after(code, 3)).toEqual({ status: 'delivered', result: 'delivered' });
    expect(after(410, 0)).toEqual({ status: 'failed', result: 'disabled', disableSubscription: true });
    expect(after(302, 0).status).toBe('pending');
  });

  it('waits at least what Retry-After asks on 429 and 503, and ignores it otherwise', () => {
    const wait = (code: number, retryAfterMs: number, step = 0) => {
      const decision = after(code, step, { retryAfterMs });
      return decision.status === 'pending' ? decision.nextAttemptAt.getTime() - now.getTime() : undefined;
    };
    expect(wait(429, 60_000)).toBe(60_000);
    expect(wait(503, 60_000)).toBe(60_000);
    expect(wait(500, 60_000)).toBe(5_000);
    expect(wait(503, 1_000, 1)).toBe(300_000);
  });

  it('a retry asked for by hand on a finished delivery is one attempt', () => {
    expect(after(500, 0, { finalAttempt: true }).status).toBe('failed');
    expect(after(200, 9, { finalAttempt: true }).status).toBe('delivered');
  });

  it('jitters within ±10%', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 86_400_000 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (ms, random) => {
          const jittered = withJitter(ms, () => random);
          return jittered >= Math.floor(ms * 0.9) && jittered <= Math.ceil(ms * 1.1);
        },
      ),
    );
  });

  it('reads Retry-After as seconds or an HTTP date, capped at a day', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Sat, 21 Nov 2026 09:01:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter('Fri, 20 Nov 2026 09:01:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('9999999', now)).toBe(86_400_000);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});
