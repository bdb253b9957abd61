import { type FormEvent, useState } from 'react';
import { ListTable } from '../components/ListTable';
import type { AuditFilter } from '../../shared/src/client/manage';
import { manageApi } from '../api';
import { Select } from '../components/Choice';
import { ErrorMessage } from '../components/ErrorMessage';
import { Field } from '../components/Field';
import { LoadMore } from '../components/LoadMore';
import { SiteFilter } from '../components/SiteFilter';
import { since } from '../components/time';
import { usePaged } from '../components/usePaged';
import { useWords } from '../language/ConsoleLanguage';
import { useLive } from '../live/LiveData';
import { siteLookup } from '../live/siteLookup';

interface Form {
  from: string;
  to: string;
  actor: '' | 'user' | 'token' | 'operator';
  action: string;
  siteId: number | null;
}
const blank: Form = { from: '', to: '', actor: '', action: '', siteId: null };

/** A day typed in the browser's time zone, as the instant it starts (`next`: the instant it ends). */
function dayStart(day: string, next = false): string | undefined {
  if (day === '') return undefined;
  const at = new Date(`${day}T00:00:00`);
  if (Number.isNaN(at.getTime())) return undefined;
  if (next) at.setDate(at.getDate() + 1);
  return at.toISOString();
}

const toFilter = (form: Form): AuditFilter => ({
  from: dayStart(form.from),
  to: dayStart(form.to, true),
  actorType: form.actor === '' ? undefined : [form.actor],
  action: form.action.trim() === '' ? undefined : form.action.trim(),
  siteIds: form.siteId === null ? undefined : [form.siteId],
});

/** Every write by staff and tokens, newest first, filtered by dates, who, action and site. */
export function AuditScreen() {
  const words = useWords();
  const sites = useLive().sites ?? [];
  const [form, setForm] = useState<Form>(blank);
  const [applied, setApplied] = useState<Form>(blank);
  const events = usePaged(['audit', applied], (cursor) =>
    manageApi.listAuditEvents(toFilter(applied), { cursor, limit: 50 }),
  );
  const set =
    <K extends keyof Form>(name: K) =>
    (value: Form[K]) =>
      setForm((before) => ({ ...before, [name]: value }));
  const lookup = siteLookup(words, sites);
  const siteName = (id: number | null) => (id === null ? words.t('audit.account') : lookup.name(id));
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setApplied(form);
  };
  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">{words.t('nav.audit')}</h1>
      <form className="filters" aria-label={words.t('audit.filters')} onSubmit={apply}>
        <Field label={words.t('audit.from')} type="date" value={form.from} onChange={set('from')} />
        <Field label={words.t('audit.to')} type="date" value={form.to} onChange={set('to')} />
        <Select
          label={words.t('audit.who')}
          value={form.actor}
          onChange={(value) => set('actor')(value === 'user' || value === 'token' || value === 'operator' ? value : '')}
        >
          <option value="">{words.t('audit.who.anyone')}</option>
          <option value="user">{words.t('audit.who.user')}</option>
          <option value="token">{words.t('audit.who.token')}</option>
          <option value="operator">{words.t('audit.who.operator')}</option>
        </Select>
        <Field
          label={words.t('audit.action')}
          value={form.action}
          onChange={set('action')}
          placeholder={words.t('audit.action.example')}
        />
        <SiteFilter sites={sites} value={form.siteId} onChange={set('siteId')} />
        <div className="filter-buttons">
          <button type="submit" className="primary">
            {words.t('audit.show')}
          </button>
        </div>
      </form>
      <ErrorMessage text={events.error} />
      {events.items?.length === 0 ? <p className="empty">{words.t('audit.empty')}</p> : null}
      {events.items && events.items.length > 0 ? (
        <ListTable
          rows={events.items}
          rowKey={(event) => event.auditId}
          columns={[
            {
              header: words.t('audit.column.when'),
              cell: (event) => since(event.at, event.siteId === null ? undefined : lookup.zone(event.siteId)),
            },
            {
              header: words.t('audit.column.who'),
              cell: (event) => (
                <>
                  {event.actor.name}{' '}
                  <span className="muted">{words.t('audit.actorKind', { type: event.actor.type })}</span>
                </>
              ),
            },
            { header: words.t('audit.column.action'), cell: (event) => <code>{event.action}</code> },
            {
              header: words.t('audit.column.target'),
              cell: (event) => `${event.target.type.replaceAll('_', ' ')} ${event.target.id}`,
            },
            { header: words.t('common.site'), cell: (event) => siteName(event.siteId) },
          ]}
        />
      ) : null}
      <LoadMore hasMore={events.hasMore} busy={events.busy} onClick={events.loadMore} />
    </section>
  );
}
