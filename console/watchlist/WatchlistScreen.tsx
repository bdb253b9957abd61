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
import type { ConsoleWords } from '../language/consoleWords';
import { useWords } from '../language/ConsoleLanguage';

const FIELDS = ['firstName', 'lastName', 'email', 'phone', 'reason'] as const;
type Values = Record<(typeof FIELDS)[number], string>;
const empty: Values = { firstName: '', lastName: '', email: '', phone: '', reason: '' };

const nameOf = (entry: WatchlistEntryAnswer) => [entry.firstName, entry.lastName].filter(Boolean).join(' ');
const describe = (words: ConsoleWords, entry: WatchlistEntryAnswer) =>
  nameOf(entry) || entry.email || entry.phone || words.t('watchlist.entryNumbered', { id: String(entry.entryId) });

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
  const words = useWords();
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
      write.setError(words.t('watchlist.noneGiven'));
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
    <Dialog
      title={entry ? words.t('watchlist.editNamed', { name: describe(words, entry) }) : words.t('watchlist.add')}
      onClose={onClose}
    >
      <form onSubmit={(event) => void submit(event)} noValidate>
        <p className="hint">{words.t('watchlist.hint')}</p>
        {field('firstName', words.t('watchlist.field.firstName'))}
        {field('lastName', words.t('watchlist.field.lastName'))}
        {field('email', words.t('watchlist.field.email'), 'email')}
        {field('phone', words.t('watchlist.field.phone'), 'tel')}
        {field('reason', words.t('watchlist.field.reason'))}
        <ErrorMessage text={write.error} />
        <FormButtons
          submit={entry ? words.t('common.save') : words.t('common.add')}
          busy={write.busy}
          onCancel={onClose}
        />
      </form>
    </Dialog>
  );
}

/** The account's watchlist: who is stopped at check-in, and why (shown to staff only). */
export function WatchlistScreen() {
  const words = useWords();
  const list = usePaged(['watchlist'], (cursor) => manageApi.listWatchlist({ cursor, limit: 50 }));
  const [editing, setEditing] = useState<{ entry: WatchlistEntryAnswer | null } | null>(null);
  const [removing, setRemoving] = useState<WatchlistEntryAnswer | null>(null);
  return (
    <section aria-labelledby="watchlist-title">
      <div className="page-head">
        <h1 id="watchlist-title">{words.t('nav.watchlist')}</h1>
        <button type="button" className="primary" onClick={() => setEditing({ entry: null })}>
          {words.t('watchlist.add')}
        </button>
      </div>
      <ErrorMessage text={list.error} />
      {list.items?.length === 0 ? <p className="empty">{words.t('watchlist.empty')}</p> : null}
      {list.items && list.items.length > 0 ? (
        <ListTable
          rows={list.items}
          rowKey={(entry) => entry.entryId}
          columns={[
            { header: words.t('watchlist.column.name'), cell: (entry) => nameOf(entry) || '—' },
            { header: words.t('watchlist.column.email'), cell: (entry) => entry.email ?? '—' },
            { header: words.t('watchlist.column.phone'), cell: (entry) => entry.phone ?? '—' },
            { header: words.t('watchlist.column.reason'), cell: (entry) => entry.reason ?? '—' },
            { header: words.t('watchlist.column.added'), cell: (entry) => since(entry.createdAt) },
          ]}
          actions={(entry) => (
            <>
              <button
                type="button"
                onClick={() => setEditing({ entry })}
                aria-label={words.t('watchlist.editNamed', { name: describe(words, entry) })}
              >
                {words.t('common.edit')}
              </button>
              <button
                type="button"
                className="danger"
                onClick={() => setRemoving(entry)}
                aria-label={words.t('watchlist.removeNamed', { name: describe(words, entry) })}
              >
                {words.t('watchlist.remove')}
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
          title={words.t('watchlist.removeNamed', { name: describe(words, removing) })}
          message={words.t('watchlist.removeMessage')}
          confirm={words.t('watchlist.remove')}
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
