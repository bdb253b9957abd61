import { describe, expect, it } from 'vitest';
import { siteLocalIso } from '../../server/src/exports/csv';

// The export's times: the site's wall clock and its offset then, the offsets cached by quarter hour.
describe('siteLocalIso', () => {
  it('follows a daylight-saving change to the second, in both directions', () => {
    const berlin = (iso: string) => siteLocalIso(new Date(iso).getTime(), 'Europe/Berlin');
    expect(berlin('2026-10-25T00:59:59Z')).toBe('2026-10-25T02:59:59+02:00');
    expect(berlin('2026-10-25T01:00:00Z')).toBe('2026-10-25T02:00:00+01:00');
    expect(berlin('2026-03-29T00:59:59.999Z')).toBe('2026-03-29T01:59:59+01:00');
    expect(berlin('2026-03-29T01:00:00Z')).toBe('2026-03-29T03:00:00+02:00');
  });

  it('agrees with Intl for every minute around a change and in odd zones', () => {
    const zones = ['Europe/Berlin', 'Asia/Kolkata', 'Australia/Lord_Howe', 'America/St_Johns', 'UTC'];
    for (const zone of zones) {
      const format = new Intl.DateTimeFormat('en-CA', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        timeZoneName: 'longOffset',
      });
      for (let ms = Date.UTC(2026, 3, 4, 12); ms < Date.UTC(2026, 3, 5, 18); ms += 59_000) {
        const parts = Object.fromEntries(format.formatToParts(ms).map((part) => [part.type, part.value]));
        const offset = (parts.timeZoneName ?? 'GMT').replace('GMT', '') || '+00:00';
        expect(siteLocalIso(ms, zone), `${zone} ${ms}`).toBe(
          `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${offset}`,
        );
      }
    }
  });

  it('is empty for no time', () => {
    expect(siteLocalIso(null, 'UTC')).toBe('');
  });
});
