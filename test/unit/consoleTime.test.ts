import { describe, expect, it } from 'vitest';
import { atSite, byInstant, since, zoneSuffix } from '../../console/components/time';

// The words depend on the browser's locale ("08:30 AM", "08:30"; "25 Nov", "Nov 25"); the clock and the day do not.
describe("the console's times", () => {
  const now = new Date('2026-11-26T12:00:00.000Z');

  it("are on the site's clock, not the browser's", () => {
    // 23:30 UTC on the 25th is already the 26th in Tokyo (08:30), and still the 25th in New York (18:30).
    const tokyo = since('2026-11-25T23:30:00.000Z', 'Asia/Tokyo', now);
    expect(tokyo).toContain('08:30');
    expect(tokyo).not.toContain('Nov');
    const newYork = since('2026-11-25T23:30:00.000Z', 'America/New_York', now);
    expect(newYork).toMatch(/06:30|18:30/);
    expect(newYork).toMatch(/25/);
  });

  it('name the day when it is not today at the site', () => {
    expect(since('2026-11-24T09:00:00.000Z', 'UTC', now)).toMatch(/24.*09:00/);
  });
});

describe('the zone beside a site’s time', () => {
  const winter = '2026-01-15T08:41:00.000Z';
  const summer = '2026-07-15T07:41:00.000Z';

  it('is named where the site’s clock is not the browser’s, by the name people use there', () => {
    expect(since(winter, 'Europe/Berlin', new Date(winter), 'America/New_York')).toMatch(/^09:41 (AM )?CET$/);
    expect(since(summer, 'Europe/Berlin', new Date(summer), 'America/New_York')).toMatch(/^09:41 (AM )?CEST$/);
    expect(since(winter, 'America/New_York', new Date(winter), 'Europe/Berlin')).toMatch(/^03:41 (AM )?EST$/);
    expect(since(summer, 'Europe/London', new Date(summer), 'Europe/Berlin')).toMatch(/^08:41 (AM )?BST$/);
    expect(since(winter, 'Asia/Tokyo', new Date(winter), 'Europe/Berlin')).toMatch(/^(17:41|05:41 PM) GMT\+9$/);
  });

  it('is left out where the two clocks agree (the same zone, or another one at the same offset)', () => {
    expect(since(winter, 'Europe/Berlin', new Date(winter), 'Europe/Berlin')).toMatch(/^09:41( AM)?$/);
    expect(since(winter, 'Europe/Berlin', new Date(winter), 'Europe/Paris')).toMatch(/^09:41( AM)?$/);
    expect(zoneSuffix(new Date(winter), undefined, 'Asia/Tokyo')).toBe('');
  });

  it('follows the history’s dates too', () => {
    expect(atSite(winter, 'Europe/Berlin', 'UTC')).toMatch(/2026.*09:41( AM)? CET$/);
    expect(atSite(winter, 'UTC', 'UTC')).toMatch(/2026.*08:41( AM)?$/);
  });

  it('lists mixing sites sort by the instant, not by the clock text', () => {
    // As text the Berlin one comes first; as instants Tokyo's 08:00 (23:00 UTC) was half an hour earlier.
    const tokyoMorning = '2026-01-15T08:00:00+09:00';
    const berlinNight = '2026-01-14T23:30:00.000Z';
    expect([berlinNight, tokyoMorning].sort(byInstant)).toEqual([tokyoMorning, berlinNight]);
  });
});
