import { describe, expect, it } from 'vitest';
import { since } from '../../console/components/time';

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
