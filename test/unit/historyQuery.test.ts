import { describe, expect, it } from 'vitest';
import { type HistoryForm, exportHref, historyQuery, searchBody } from '../../console/history/historyQuery';
import type { Site } from '../../shared/src/schemas/sites';
import { consoleCatalogs } from '../../shared/src/messages/console';
import { wordsOf } from '../../shared/src/messages/translator';

const english = wordsOf(consoleCatalogs, 'en');

const badge = { enabled: false, size: '62x100' } as const;
const visit = { code: 'K7QW3MZP9D', requiresApproval: false };
// What History sends: the list and its file take the same sites, instants and text.
const berlin: Site = {
  siteId: 1,
  name: 'Main lobby',
  timezone: 'Europe/Berlin',
  archivedAt: null,
  badge,
  visit,
  defaultLanguage: 'en',
};
const york: Site = {
  siteId: 2,
  name: 'Dock',
  timezone: 'America/New_York',
  archivedAt: null,
  badge,
  visit,
  defaultLanguage: 'en',
};
const form: HistoryForm = { kind: 'people', siteId: 1, from: '2026-10-25', to: '2026-10-25', text: '' };

describe('historyQuery', () => {
  it('reads the days in the site’s zone: a 25-hour day at the end of summer time', () => {
    const query = historyQuery(english, [berlin, york], form);
    expect(query).toMatchObject({
      siteIds: [1],
      start: '2026-10-24T22:00:00.000Z',
      end: '2026-10-25T23:00:00.000Z',
      timeZone: 'Europe/Berlin',
    });
  });

  it('sends the search and the export the same range and text', () => {
    const query = historyQuery(english, [berlin], { ...form, text: '  lov ' });
    if ('problem' in query) throw new Error(query.problem);
    expect(searchBody(query, null)).toEqual({
      siteIds: [1],
      overlapsFrom: query.start,
      overlapsTo: query.end,
      q: 'lov',
      limit: 50,
    });
    const href = new URL(exportHref(query), 'http://console.test');
    expect(href.pathname).toBe('/v1/checkins/people/export');
    expect(Object.fromEntries(href.searchParams)).toEqual({ siteIds: '1', from: query.start, to: query.end, q: 'lov' });
    const cars = historyQuery(english, [berlin], { ...form, kind: 'vehicles', text: 'b-ab 123' });
    if ('problem' in cars) throw new Error(cars.problem);
    expect(searchBody(cars, 'next')).toMatchObject({ licensePlate: 'b-ab 123', cursor: 'next' });
    expect(exportHref(cars)).toContain('/v1/checkins/vehicles/export?siteIds=1&');
    expect(exportHref(cars)).toContain('licensePlate=b-ab+123');
  });

  it('says what is wrong in plain words', () => {
    const problem = (change: Partial<HistoryForm>, sites = [berlin, york]) =>
      historyQuery(english, sites, { ...form, ...change });
    expect(problem({ to: '2026-10-24' })).toEqual({ problem: 'The To date is before the From date.' });
    expect(problem({ from: '' })).toEqual({ problem: 'Enter a From date.' });
    expect(problem({ siteId: null })).toEqual({
      problem: 'Your sites are in different time zones. Choose one site to see its days.',
    });
    expect(problem({ kind: 'vehicles', text: '--' })).toEqual({
      problem: 'A license plate needs at least one letter or digit.',
    });
    // All sites in one zone: no site needs choosing, and no siteIds are sent.
    expect(problem({ siteId: null }, [berlin, { ...york, timezone: 'Europe/Berlin' }])).toMatchObject({
      siteIds: undefined,
    });
  });
});
