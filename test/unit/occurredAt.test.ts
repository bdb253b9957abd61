import { describe, it, expect } from 'vitest';
import { MAX_FUTURE_MS, MAX_PAST_MS, resolveOccurredAt } from '../../shared/src/domain';

const now = new Date('2025-03-10T12:00:00.000Z');
const offset = (ms: number): Date => new Date(now.getTime() + ms);

describe('resolveOccurredAt', () => {
  it('uses now when occurredAt is omitted', () => {
    expect(resolveOccurredAt(undefined, now)).toEqual({ ok: true, at: now });
  });

  it('keeps a claimed time inside the window', () => {
    const claimed = offset(-3 * 3_600_000);
    expect(resolveOccurredAt(claimed, now)).toEqual({ ok: true, at: claimed });
  });

  it('accepts exactly 5 minutes in the future and rejects 1 ms more', () => {
    expect(resolveOccurredAt(offset(MAX_FUTURE_MS), now)).toEqual({ ok: true, at: offset(MAX_FUTURE_MS) });
    const late = resolveOccurredAt(offset(MAX_FUTURE_MS + 1), now);
    expect(late).toMatchObject({ ok: false, code: 'OCCURRED_AT_OUT_OF_RANGE' });
    expect(late.ok ? '' : late.message).toMatch(/future/);
  });

  it('accepts exactly 7 days in the past and rejects 1 ms more', () => {
    expect(resolveOccurredAt(offset(-MAX_PAST_MS), now)).toEqual({ ok: true, at: offset(-MAX_PAST_MS) });
    const old = resolveOccurredAt(offset(-MAX_PAST_MS - 1), now);
    expect(old).toMatchObject({ ok: false, code: 'OCCURRED_AT_OUT_OF_RANGE' });
    expect(old.ok ? '' : old.message).toMatch(/past/);
  });

  it('has the bounds docs/api.md states (Offline timing)', () => {
    expect(MAX_FUTURE_MS).toBe(300_000);
    expect(MAX_PAST_MS).toBe(604_800_000);
  });

  it('rejects an invalid date', () => {
    expect(resolveOccurredAt(new Date(Number.NaN), now)).toMatchObject({ ok: false, code: 'OCCURRED_AT_OUT_OF_RANGE' });
  });

  it('clamps a claimed time up to the previous event', () => {
    const previous = offset(-60_000);
    expect(resolveOccurredAt(offset(-120_000), now, previous)).toEqual({ ok: true, at: previous });
  });

  it('clamps now up to a previous event that lies ahead of it', () => {
    const previous = offset(2 * 60_000);
    expect(resolveOccurredAt(undefined, now, previous)).toEqual({ ok: true, at: previous });
  });

  it('does not clamp a time at or after the previous event', () => {
    const previous = offset(-60_000);
    expect(resolveOccurredAt(previous, now, previous)).toEqual({ ok: true, at: previous });
    expect(resolveOccurredAt(offset(-30_000), now, previous)).toEqual({ ok: true, at: offset(-30_000) });
  });

  it('checks the range before clamping: an out-of-range time is refused even if notBefore is later', () => {
    const previous = offset(-60_000);
    expect(resolveOccurredAt(offset(-MAX_PAST_MS - 1), now, previous)).toMatchObject({ ok: false });
  });

  it('does not mutate or alias its inputs', () => {
    const claimed = offset(-1_000);
    const result = resolveOccurredAt(claimed, now);
    expect(result.ok && result.at).not.toBe(claimed);
    expect(claimed.getTime()).toBe(now.getTime() - 1_000);
  });
});
