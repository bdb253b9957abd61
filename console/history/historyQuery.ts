import { plateProblem } from '../../shared/src/domain/plate';
import { isCalendarDate, siteDayRange } from '../../shared/src/domain/siteDay';
import type { Site } from '../../shared/src/schemas/sites';
import type { ConsoleWords } from '../language/consoleWords';

export type HistoryKind = 'people' | 'vehicles';

/** What the form holds: people or vehicles, the site (null: all the user's sites), two site-local dates, the text. */
export interface HistoryForm {
  kind: HistoryKind;
  siteId: number | null;
  from: string;
  to: string;
  text: string;
}

/** A search the list shows, and the same visits as a file: one range of instants for both. */
export interface HistoryQuery {
  kind: HistoryKind;
  siteIds: number[] | undefined;
  start: string;
  end: string;
  /** People: the start of a name, email or company; vehicles: a license plate. */
  text: string | undefined;
  timeZone: string;
}

/** The zone the dates are read in: the chosen site's, or the one all the user's sites share. */
export function zoneOf(sites: readonly Site[], siteId: number | null): string | null {
  if (siteId !== null) return sites.find((site) => site.siteId === siteId)?.timezone ?? null;
  const zones = new Set(sites.map((site) => site.timezone));
  return zones.size === 1 ? (sites[0]?.timezone ?? null) : null;
}

/** The query of a filled-in form, or what is wrong with it, in plain words. */
export function historyQuery(
  words: ConsoleWords,
  sites: readonly Site[],
  form: HistoryForm,
): HistoryQuery | { problem: string } {
  const timeZone = zoneOf(sites, form.siteId);
  if (timeZone === null) return { problem: words.t('history.problem.zones') };
  if (!isCalendarDate(form.from)) return { problem: words.t('history.problem.noFrom') };
  if (!isCalendarDate(form.to)) return { problem: words.t('history.problem.noTo') };
  if (form.to < form.from) return { problem: words.t('history.problem.toBeforeFrom') };
  const text = form.text.trim();
  if (text.length > 100) return { problem: words.t('history.problem.tooLong') };
  const badPlate = form.kind === 'vehicles' && text !== '' ? plateProblem(text) : undefined;
  if (badPlate) return { problem: `${badPlate}.` };
  const { start, end } = siteDayRange(form.from, form.to, timeZone);
  return {
    kind: form.kind,
    siteIds: form.siteId === null ? undefined : [form.siteId],
    start: start.toISOString(),
    end: end.toISOString(),
    text: text === '' ? undefined : text,
    timeZone,
  };
}

/** The search body of one page of the list (docs/api.md, Search). */
export function searchBody(query: HistoryQuery, cursor: string | null) {
  const text =
    query.text === undefined ? {} : query.kind === 'people' ? { q: query.text } : { licensePlate: query.text };
  return {
    ...(query.siteIds ? { siteIds: query.siteIds } : {}),
    overlapsFrom: query.start,
    overlapsTo: query.end,
    ...text,
    limit: 50,
    ...(cursor ? { cursor } : {}),
  };
}

/** The export of exactly the listed visits (docs/api.md, Export): same sites, same instants, same text. */
export function exportHref(query: HistoryQuery): string {
  const params = new URLSearchParams();
  if (query.siteIds) params.set('siteIds', query.siteIds.join(','));
  params.set('from', query.start);
  params.set('to', query.end);
  if (query.text !== undefined) params.set(query.kind === 'people' ? 'q' : 'licensePlate', query.text);
  return `/v1/checkins/${query.kind}/export?${params.toString()}`;
}
