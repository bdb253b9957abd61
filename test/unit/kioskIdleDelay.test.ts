import { describe, expect, it } from 'vitest';
import { IDLE_MS, idleDelayFromQuery } from '../../kiosk/renderer/hooks/useIdleReset';

// Tests shorten the kiosk's idle minute through the address; an address can only shorten it, and not
// to a delay so short the kiosk would forget a person while they read.
describe('the idle delay from the address', () => {
  it('is taken in milliseconds from a second up to the minute', () => {
    expect(idleDelayFromQuery('?server=x&idle=1500')).toBe(1_500);
    expect(idleDelayFromQuery(`?idle=${IDLE_MS}`)).toBe(60_000);
  });

  it('is not taken when missing, shorter than a second, longer than the minute, or not a number', () => {
    for (const search of [
      '',
      '?idle=',
      '?idle=999',
      '?idle=0',
      '?idle=60001',
      '?idle=1e4',
      '?idle=-2000',
      '?idle=abc',
    ]) {
      expect(idleDelayFromQuery(search), search).toBeUndefined();
    }
  });
});
