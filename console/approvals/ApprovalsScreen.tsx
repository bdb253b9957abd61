import { type FormEvent, useState } from 'react';
import { api, newKey } from '../api';
import { Dialog } from '../components/Dialog';
import { ErrorMessage } from '../components/ErrorMessage';
import { Field } from '../components/Field';
import { FormButtons } from '../components/FormButtons';
import { since } from '../components/time';
import { siteLookup } from '../live/siteLookup';
import { useAction } from '../components/useAction';
import { useLive } from '../live/LiveData';
import { type OnSiteRow, onSiteRows } from '../onSite/rows';
import { useSession } from '../session/SessionContext';
import { HostTold } from '../onSite/HostTold';

function DenyDialog({ row, onClose, onDone }: { row: OnSiteRow; onClose: () => void; onDone: () => void }) {
  const [reason, setReason] = useState('');
  const action = useAction();
  const [key] = useState(newKey);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = reason.trim() === '' ? {} : { reason: reason.trim() };
    const denied = await action.run<unknown>(() =>
      row.kind === 'person'
        ? api.denyPerson(row.siteId, row.checkinId, body, key)
        : api.denyVehicle(row.siteId, row.checkinId, body, key),
    );
    if (denied) onDone();
  };
  return (
    <Dialog title={`Deny ${row.name}`} onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <Field label="Reason" value={reason} onChange={setReason} maxLength={500} placeholder="Optional" />
        <ErrorMessage text={action.error} />
        <FormButtons submit="Deny" busy={action.busy} onCancel={onClose} tone="danger" />
      </form>
    </Dialog>
  );
}

/** Every PENDING person and vehicle of the user's sites, oldest first; one decided elsewhere leaves with the next poll. */
export function ApprovalsScreen() {
  const { can } = useSession();
  const live = useLive();
  const approve = useAction();
  const [denying, setDenying] = useState<OnSiteRow | null>(null);
  const sites = live.sites ?? [];
  const site = siteLookup(sites);
  const pending = onSiteRows(live.people, live.vehicles, null).filter((row) => row.status === 'PENDING');
  const mayDecide = (row: OnSiteRow) => (row.kind === 'person' ? can.approvePeople : can.approveVehicles);

  const approveRow = async (row: OnSiteRow) => {
    const key = newKey();
    const done = await approve.run<unknown>(() =>
      row.kind === 'person'
        ? api.approvePerson(row.siteId, row.checkinId, {}, key)
        : api.approveVehicle(row.siteId, row.checkinId, {}, key),
    );
    if (done) live.refresh();
  };

  return (
    <section aria-labelledby="approvals-title">
      <h1 id="approvals-title">Approvals</h1>
      <p className="count" aria-live="polite">
        {live.sites === null ? 'Loading…' : `${pending.length} waiting`}
      </p>
      <ErrorMessage text={live.error ?? approve.error} />
      {pending.length === 0 && live.sites !== null ? <p className="empty">Nobody is waiting for approval.</p> : null}
      <ul className="cards">
        {pending.map((row) => (
          <li key={row.key} className="card-row">
            <div className="card-main">
              <strong className={row.kind === 'vehicle' ? 'plate' : undefined}>{row.name}</strong>
              <span className="muted">
                {row.kind === 'vehicle' ? 'Vehicle' : 'Visitor'}
                {row.company ? ` · ${row.company}` : ''}
                {row.host ? ` · for ${row.host}` : ''} · {site.name(row.siteId)} · since{' '}
                {since(row.since, site.zone(row.siteId))}
              </span>
              <HostTold row={row} />
            </div>
            {mayDecide(row) ? (
              <div className="buttons">
                <button type="button" className="go" disabled={approve.busy} onClick={() => void approveRow(row)}>
                  Approve
                </button>
                <button type="button" className="danger" onClick={() => setDenying(row)}>
                  Deny
                </button>
              </div>
            ) : (
              <span className="muted">Security decides on vehicles.</span>
            )}
          </li>
        ))}
      </ul>
      {denying ? (
        <DenyDialog
          row={denying}
          onClose={() => setDenying(null)}
          onDone={() => {
            setDenying(null);
            live.refresh();
          }}
        />
      ) : null}
    </section>
  );
}
