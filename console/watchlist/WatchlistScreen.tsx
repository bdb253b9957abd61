import { type FormEvent, useState } from 'react';
import { ListTable } from '../components/ListTable';
import type { WatchlistEntryAnswer } from '../../shared/src/client/manage';
import { manageApi, newKey } from '../api';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { Dialog } from '../components/Dialog';
import { ErrorMessage } from '../components/ErrorMessage';
import { Field } from '../components/Field';
import { FormButtons } from '../components/FormButtons';
import { LoadMore } from '../components/LoadMore';
import { since } from '../components/time';
import { usePaged } from '../components/usePaged';
import { useWrite } from '../components/useWrite';

const FIELDS = ['firstName', 'lastName', 'email', 'phone', 'reason'] as const;
type Values = Record<(typeof FIELDS)[number], string>;
const empty: Values = { firstName: '', lastName: '', email: '', phone: '', reason: '' };

const nameOf = (entry: WatchlistEntryAnswer) => [entry.firstName, entry.lastName].filter(Boolean).join(' ');
const describe = (entry: WatchlistEntryAnswer) =>
  nameOf(entry) || entry.email || entry.phone || `Entry ${entry.entryId}`;

/** Blank fields are left out of a create (the API refuses empty strings for an email or phone). */
function createBody(values: Values) {
  const out: Partial<Values> = {};
  for (const name of FIELDS) if (values[name].trim() !== '') out[name] = values[name].trim();
  return out;
}

/** An edit sends every field: a blank one as null, which clears it. */
function updateBody(values: Values) {
  const out: Partial<Record<keyof Values, string | null>> = {};
  for (const name of FIELDS) out[name] = values[name].trim() === '' ? null : values[name].trim();
  return out;
}

const valuesOf = (entry: WatchlistEntryAnswer | null): Values =>
  entry
    ? {
        firstName: entry.firstName ?? '',
        lastName: entry.lastName ?? '',
        email: entry.email ?? '',
        phone: entry.phone ?? '',
        reason: entry.reason ?? '',
      }
    : empty;

/** Add an entry, or edit one (`entry` given). */
function EntryDialog({
  entry,
  onClose,
  onDone,
}: {
  entry: WatchlistEntryAnswer | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const [values, setValues] = useState<Values>(() => valuesOf(entry));
  const [key] = useState(newKey);
  const write = useWrite(FIELDS);
  const edit = (name: keyof Values) => (value: string) => {
    setValues((before) => ({ ...before, [name]: value }));
    write.clear(name);
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const given = createBody(values);
    if (!given.email && !given.phone && !(given.firstName && given.lastName)) {
      write.setError('Give an email, a phone number, or both first and last name.');
      return;
    }
    const done = entry
      ? await write.run(() => manageApi.updateWatchlistEntry(entry.entryId, updateBody(values), key))
      : await write.run(() => manageApi.addToWatchlist(given, key));
    if (done) onDone();
  };
  const field = (name: keyof Values, label: string, type = 'text') => (
    <Field label={label} type={type} value={values[name]} onChange={edit(name)} error={write.fieldErrors[name]} />
  );
  return (
    <Dialog title={entry ? `Edit ${describe(entry)}` : 'Add to the watchlist'} onClose={onClose}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <p className="hint">
          A visitor matching the email, the phone number or the full name is stopped and shown in Alerts.
        </p>
        {field('firstName', 'First name')}
        {field('lastName', 'Last name')}
        {field('email', 'Email', 'email')}
        {field('phone', 'Phone', 'tel')}
        {field('reason', 'Reason')}
        <ErrorMessage text={write.error} />
        <FormButtons submit={entry ? 'Save' : 'Add'} busy={write.busy} onCancel={onClose} />
      </form>
    </Dialog>
  );
}

/** The account's watchlist: who is stopped at check-in, and why (shown to staff only). */
export function WatchlistScreen() {
  const list = usePaged(['watchlist'], (cursor) => manageApi.listWatchlist({ cursor, limit: 50 }));
  const [editing, setEditing] = useState<{ entry: WatchlistEntryAnswer | null } | null>(null);
  const [removing, setRemoving] = useState<WatchlistEntryAnswer | null>(null);
  return (
    <section aria-labelledby="watchlist-title">
      <div className="page-head">
        <h1 id="watchlist-title">Watchlist</h1>
        <button type="button" className="primary" onClick={() => setEditing({ entry: null })}>
          Add to the watchlist
        </button>
      </div>
      <ErrorMessage text={list.error} />
      {list.items?.length === 0 ? <p className="empty">Nobody is on the watchlist.</p> : null}
      {list.items && list.items.length > 0 ? (
        <ListTable
          rows={list.items}
          rowKey={(entry) => entry.entryId}
          columns={[
            { header: 'Name', cell: (entry) => nameOf(entry) || '—' },
            { header: 'Email', cell: (entry) => entry.email ?? '—' },
            { header: 'Phone', cell: (entry) => entry.phone ?? '—' },
            { header: 'Reason', cell: (entry) => entry.reason ?? '—' },
            { header: 'Added', cell: (entry) => since(entry.createdAt) },
          ]}
          actions={(entry) => (
            <>
              <button type="button" onClick={() => setEditing({ entry })} aria-label={`Edit ${describe(entry)}`}>
                Edit
              </button>
              <button
                type="button"
                className="danger"
                onClick={() => setRemoving(entry)}
                aria-label={`Remove ${describe(entry)}`}
              >
                Remove
              </button>
            </>
          )}
        />
      ) : null}
      <LoadMore hasMore={list.hasMore} busy={list.busy} onClick={list.loadMore} />
      {editing ? (
        <EntryDialog
          entry={editing.entry}
          onClose={() => setEditing(null)}
          onDone={() => {
            setEditing(null);
            list.reload();
          }}
        />
      ) : null}
      {removing ? (
        <ConfirmDialog
          title={`Remove ${describe(removing)}`}
          message="They will no longer be stopped at check-in. Past alerts stay."
          confirm="Remove"
          onClose={() => setRemoving(null)}
          action={(key) => manageApi.removeFromWatchlist(removing.entryId, key)}
          onDone={() => {
            setRemoving(null);
            list.reload();
          }}
        />
      ) : null}
    </section>
  );
}
