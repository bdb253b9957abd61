import { type FormEvent, useId, useState } from 'react';
import type { PersonCheckinAnswer, VehicleCheckinAnswer } from '../../shared/src/client';
import { api, newKey } from '../api';
import { Dialog } from '../components/Dialog';
import { ErrorMessage } from '../components/ErrorMessage';
import { DenyReasonField, denyReason } from '../components/DenyReasonField';
import { FormButtons } from '../components/FormButtons';
import { since } from '../components/time';
import { siteLookup } from '../live/siteLookup';
import { useAction } from '../components/useAction';
import { useWords } from '../language/ConsoleLanguage';
import { useLive } from '../live/LiveData';
import type { OnSiteRow } from '../onSite/rows';
import { useSession } from '../session/SessionContext';
import { mayDecide, waitingRows } from './waiting';
import { HostTold } from '../onSite/HostTold';

type Decided = PersonCheckinAnswer | VehicleCheckinAnswer;

function DenyDialog({
  row,
  onClose,
  onDone,
}: {
  row: OnSiteRow;
  onClose: () => void;
  onDone: (denied: Decided) => void;
}) {
  const words = useWords();
  const [reason, setReason] = useState('');
  const action = useAction();
  const [key] = useState(newKey);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = denyReason(reason);
    const denied = await action.run<Decided>(() =>
      row.kind === 'person'
        ? api.denyPerson(row.siteId, row.checkinId, body, key)
        : api.denyVehicle(row.siteId, row.checkinId, body, key),
    );
    if (denied) onDone(denied);
  };
  return (
    <Dialog title={words.t('approvals.denyNamed', { name: row.name })} onClose={onClose}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <DenyReasonField
          label={words.t('approvals.deny.reason')}
          optional={words.t('common.optional')}
          value={reason}
          onChange={setReason}
        />
        <ErrorMessage text={action.error} />
        <FormButtons submit={words.t('approvals.deny')} busy={action.busy} onCancel={onClose} tone="danger" />
      </form>
    </Dialog>
  );
}

interface GroupProps {
  title: string;
  rows: readonly OnSiteRow[];
  empty: string;
  busy: boolean;
  onApprove: (row: OnSiteRow) => void;
  onDeny: (row: OnSiteRow) => void;
}

/** One labelled group (People, Vehicles): a person is never decided on among plates, nor a plate among people. */
function ApprovalGroup({ title, rows, empty, busy, onApprove, onDeny }: GroupProps) {
  const { can } = useSession();
  const words = useWords();
  const live = useLive();
  const site = siteLookup(words, live.sites ?? []);
  const heading = useId();
  return (
    <section className="approval-group" aria-labelledby={heading}>
      <h2 id={heading}>{title}</h2>
      {rows.length === 0 ? <p className="empty">{empty}</p> : null}
      <ul className="cards">
        {rows.map((row) => (
          <li key={row.key} className={`card-row${row.kind === 'vehicle' ? ' vehicle' : ''}`}>
            <div className="card-main">
              <strong className={row.kind === 'vehicle' ? 'plate' : undefined}>{row.name}</strong>
              <span className="muted">
                {[
                  row.kind === 'vehicle' ? words.t('approvals.vehicle') : words.t('approvals.visitor'),
                  ...(row.company ? [row.company] : []),
                  ...(row.host ? [words.t('approvals.forHost', { host: row.host })] : []),
                  site.name(row.siteId),
                  words.t('approvals.since', { time: since(row.since, site.zone(row.siteId)) }),
                ].join(' · ')}
              </span>
              <HostTold row={row} />
            </div>
            {mayDecide(can, row) ? (
              <div className="buttons">
                <button type="button" className="go" disabled={busy} onClick={() => onApprove(row)}>
                  {words.t('approvals.approve')}
                </button>
                <button type="button" className="danger" onClick={() => onDeny(row)}>
                  {words.t('approvals.deny')}
                </button>
              </div>
            ) : (
              <span className="muted">{words.t('approvals.securityDecides')}</span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * Every PENDING person and vehicle of the user's sites, oldest first, in two labelled groups (People,
 * Vehicles); one decided elsewhere leaves with the next poll.
 */
export function ApprovalsScreen() {
  const { can } = useSession();
  const words = useWords();
  const live = useLive();
  const approve = useAction();
  const [denying, setDenying] = useState<OnSiteRow | null>(null);
  const waiting = waitingRows(live.people, live.vehicles);
  const total = waiting.people.length + waiting.vehicles.length;

  const approveRow = async (row: OnSiteRow) => {
    const key = newKey();
    const done = await approve.run<Decided>(() =>
      row.kind === 'person'
        ? api.approvePerson(row.siteId, row.checkinId, {}, key)
        : api.approveVehicle(row.siteId, row.checkinId, {}, key),
    );
    if (done) live.putVisit(done);
  };
  const group = { busy: approve.busy, onApprove: (row: OnSiteRow) => void approveRow(row), onDeny: setDenying };

  return (
    <section aria-labelledby="approvals-title">
      <h1 id="approvals-title">{words.t('nav.approvals')}</h1>
      <p className="count" aria-live="polite">
        {live.sites === null
          ? words.t('common.loading')
          : words.t('approvals.count', {
              total,
              people: waiting.people.length,
              vehicles: waiting.vehicles.length,
            })}
      </p>
      <ErrorMessage text={live.error ?? approve.error} />
      {live.sites === null ? null : (
        <>
          {can.approvePeople || waiting.people.length > 0 ? (
            <ApprovalGroup
              title={words.t('approvals.people')}
              rows={waiting.people}
              empty={words.t('approvals.people.empty')}
              {...group}
            />
          ) : null}
          {can.approveVehicles || waiting.vehicles.length > 0 ? (
            <ApprovalGroup
              title={words.t('approvals.vehicles')}
              rows={waiting.vehicles}
              empty={words.t('approvals.vehicles.empty')}
              {...group}
            />
          ) : null}
        </>
      )}
      {denying ? (
        <DenyDialog
          row={denying}
          onClose={() => setDenying(null)}
          onDone={(denied) => {
            setDenying(null);
            live.putVisit(denied);
          }}
        />
      ) : null}
    </section>
  );
}
