import { describe, expect, it } from 'vitest';
import { addDays, isCalendarDate, siteDate, siteDayRange, startOfSiteDay } from '../../shared/src/domain/siteDay';

describe('startOfSiteDay: the instant a site-local day begins', () => {
  it('is local midnight in summer and in winter time', () => {
    expect(startOfSiteDay('2026-07-01', 'Europe/Berlin').toISOString()).toBe('2026-06-30T22:00:00.000Z');
    expect(startOfSiteDay('2026-12-01', 'Europe/Berlin').toISOString()).toBe('2026-11-30T23:00:00.000Z');
    expect(startOfSiteDay('2026-11-25', 'UTC').toISOString()).toBe('2026-11-25T00:00:00.000Z');
    expect(startOfSiteDay('2026-11-25', 'America/New_York').toISOString()).toBe('2026-11-25T05:00:00.000Z');
    expect(startOfSiteDay('2026-11-25', 'Asia/Kolkata').toISOString()).toBe('2026-11-24T18:30:00.000Z');
    expect(startOfSiteDay('2026-11-25', 'Pacific/Kiritimati').toISOString()).toBe('2026-11-24T10:00:00.000Z');
  });

  it('gives the 23- and 25-hour days of a daylight-saving change their true length', () => {
    const spring = siteDayRange('2026-03-29', '2026-03-29', 'Europe/Berlin');
    expect(spring.start.toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect((spring.end.getTime() - spring.start.getTime()) / 3_600_000).toBe(23);
    const autumn = siteDayRange('2026-10-25', '2026-10-25', 'Europe/Berlin');
    expect(autumn.start.toISOString()).toBe('2026-10-24T22:00:00.000Z');
    expect((autumn.end.getTime() - autumn.start.getTime()) / 3_600_000).toBe(25);
    const newYork = siteDayRange('2026-03-08', '2026-11-01', 'America/New_York');
    expect(newYork.start.toISOString()).toBe('2026-03-08T05:00:00.000Z');
    expect(newYork.end.toISOString()).toBe('2026-11-02T05:00:00.000Z');
  });

  it('starts a day whose midnight a clock change skips when the clock starts it', () => {
    // Santiago springs forward at local midnight: 2026-09-06 begins at 01:00 (-03:00), 04:00 UTC.
    expect(startOfSiteDay('2026-09-06', 'America/Santiago').toISOString()).toBe('2026-09-06T04:00:00.000Z');
    expect(siteDate(new Date('2026-09-06T03:59:59.999Z'), 'America/Santiago')).toBe('2026-09-05');
  });

  it('refuses what is not a calendar date, or an unknown zone', () => {
    expect(() => startOfSiteDay('2026-02-30', 'UTC')).toThrow(RangeError);
    expect(() => startOfSiteDay('yesterday', 'UTC')).toThrow(RangeError);
    expect(() => startOfSiteDay('2026-02-03', 'Mars/Olympus')).toThrow(RangeError);
  });
});

describe('siteDate and addDays', () => {
  it('reads the date where the site is, not where the viewer is', () => {
    const instant = new Date('2026-11-25T23:30:00Z');
    expect(siteDate(instant, 'Europe/Berlin')).toBe('2026-11-26');
    expect(siteDate(instant, 'America/Los_Angeles')).toBe('2026-11-25');
  });

  it('counts calendar days across months, years and leap days', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29');
    expect(isCalendarDate('2028-02-29')).toBe(true);
    expect(isCalendarDate('2026-02-29')).toBe(false);
  });
});
