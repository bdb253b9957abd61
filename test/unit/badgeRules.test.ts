import { describe, expect, it } from 'vitest';
import {
  badgeQrText,
  badgeRefusal,
  badgeValidUntil,
  looksLikeBadgeScan,
  parseBadgeQr,
} from '../../shared/src/domain/badge';
import { personStatuses } from '../../shared/src/domain';

describe('badge rules', () => {
  it('a badge is valid until the end of the site-local day it is printed, across clock changes', () => {
    // 23:30 in Berlin on 25 Oct 2026 (the night the clocks go back): still that day, which has 25 hours.
    expect(badgeValidUntil(new Date('2026-10-25T22:30:00Z'), 'Europe/Berlin').toISOString()).toBe(
      '2026-10-25T22:59:59.999Z',
    );
    // 00:30 the next day: valid until that day's end.
    expect(badgeValidUntil(new Date('2026-10-25T23:30:00Z'), 'Europe/Berlin').toISOString()).toBe(
      '2026-10-26T22:59:59.999Z',
    );
    expect(badgeValidUntil(new Date('2026-11-28T09:00:00Z'), 'America/New_York').toISOString()).toBe(
      '2026-11-29T04:59:59.999Z',
    );
  });

  it('only a visit on site gets a badge', () => {
    const given = personStatuses.filter((status) => badgeRefusal(status) === undefined);
    expect(given).toEqual(['IN', 'ON_BREAK']);
    expect(badgeRefusal('STOP')?.code).toBe('CHECKIN_NOT_ADMITTED');
    expect(badgeRefusal('PENDING')?.reason).toContain('once approved');
    expect(badgeRefusal('OUT')?.code).toBe('CHECKIN_CLOSED');
  });

  it('reads back the QR text it writes, and nothing else', () => {
    const scan = { siteId: 3, checkinId: 9_007_199_254, code: 'q3Zr8LwT0bXy4KcN' };
    const text = badgeQrText(scan);
    expect(text).toBe('gatehouse://checkout?site=3&checkin=9007199254&code=q3Zr8LwT0bXy4KcN');
    expect(parseBadgeQr(`  ${text}\n`)).toEqual(scan);
    for (const wrong of [
      'Ada Lovelace',
      'gatehouse://checkout?site=3&checkin=42',
      'gatehouse://checkout?site=0&checkin=42&code=q3Zr8LwT0bXy4KcN',
      'gatehouse://checkout?site=3&checkin=42&code=short',
      'gatehouse://checkout?site=3&checkin=42&code=q3Zr8LwT0bXy4Kc%21',
      'https://example.com/checkout?site=3&checkin=42&code=q3Zr8LwT0bXy4KcN',
    ])
      expect(parseBadgeQr(wrong), wrong).toBeUndefined();
    expect(looksLikeBadgeScan('GATEHOUSE://checkout?site=')).toBe(true);
    expect(looksLikeBadgeScan('Gate')).toBe(false);
  });
});
