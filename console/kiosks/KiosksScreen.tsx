import { useCallback, useState } from 'react';
import { ListTable } from '../components/ListTable';
import type { KioskAnswer, PairingCodeAnswer } from '../../shared/src/client/administration';
import { adminApi, newKey } from '../api';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ErrorMessage } from '../components/ErrorMessage';
import { since } from '../components/time';
import { useAction } from '../components/useAction';
import { useLoaded } from '../components/useLoaded';
import { siteLookup } from '../live/siteLookup';
import { AddKioskDialog, CodeDialog, modeWords } from './KioskDialogs';
import './kiosks.css';

/** Kiosks report about once a minute: the list is read again as often. */
const REFRESH_MS = 30_000;
const count = (value: number | null) => (value === null ? '—' : String(value));

/** The kiosks of the user's sites with what their last heartbeat said; add one, pair it again, revoke it. */
export function KiosksScreen() {
  const readKiosks = useCallback(() => adminApi.listKiosks(), []);
  // Archived sites too, to name their kiosks; new kiosks go to open sites only.
  const readSites = useCallback(() => adminApi.listSites({ archived: true }), []);
  const kiosks = useLoaded(['kiosks'], readKiosks, REFRESH_MS);
  const sites = useLoaded(['sites', 'with archived'], readSites);
  const [adding, setAdding] = useState(false);
  const [code, setCode] = useState<{ name: string; code: PairingCodeAnswer } | null>(null);
  const [revoking, setRevoking] = useState<KioskAnswer | null>(null);
  const pairing = useAction();
  const siteList = sites.value?.data ?? [];
  const openSites = siteList.filter((site) => !site.archivedAt);
  const list = kiosks.value?.data ?? [];
  const lookup = siteLookup(siteList);

  const newCode = async (kiosk: KioskAnswer) => {
    const made = await pairing.run(() => adminApi.newPairingCode(kiosk.kioskId, newKey()));
    if (made) setCode({ name: kiosk.name, code: made });
  };

  return (
    <section aria-labelledby="kiosks-title">
      <div className="page-head">
        <h1 id="kiosks-title">Kiosks</h1>
        <button type="button" className="primary" disabled={openSites.length === 0} onClick={() => setAdding(true)}>
          Add a kiosk
        </button>
      </div>
      <ErrorMessage text={kiosks.error ?? sites.error ?? pairing.error} />
      {kiosks.value === null && !kiosks.error ? <p aria-busy="true">Loading…</p> : null}
      {kiosks.value !== null && list.length === 0 ? (
        <p className="empty">No kiosks yet. Add one, then enter its pairing code on the device.</p>
      ) : null}
      {list.length > 0 ? (
        <ListTable
          rows={list}
          rowKey={(kiosk) => kiosk.kioskId}
          columns={[
            { header: 'Name', cell: (kiosk) => kiosk.name },
            { header: 'Site', cell: (kiosk) => lookup.name(kiosk.siteId) },
            { header: 'Mode', cell: (kiosk) => modeWords[kiosk.mode] ?? kiosk.mode },
            {
              header: 'Last seen',
              cell: (kiosk) =>
                kiosk.lastSeenAt
                  ? since(kiosk.lastSeenAt, lookup.zone(kiosk.siteId))
                  : kiosk.pairedAt
                    ? 'Not yet'
                    : 'Not paired yet',
            },
            { header: 'Pending', cell: (kiosk) => count(kiosk.pending) },
            {
              header: 'Needs attention',
              cell: (kiosk) => count(kiosk.attention),
              className: (kiosk) => (kiosk.attention ? 'attention' : undefined),
            },
            { header: 'App version', cell: (kiosk) => kiosk.appVersion ?? '—' },
          ]}
          actions={(kiosk) => (
            <>
              <button type="button" disabled={pairing.busy} onClick={() => void newCode(kiosk)}>
                New pairing code
              </button>
              <button type="button" className="danger" onClick={() => setRevoking(kiosk)}>
                Revoke
              </button>
            </>
          )}
        />
      ) : null}
      {adding ? (
        <AddKioskDialog sites={openSites} onClose={() => setAdding(false)} onAdded={() => void kiosks.reload()} />
      ) : null}
      {code ? <CodeDialog name={code.name} code={code.code} onClose={() => setCode(null)} /> : null}
      {revoking ? (
        <ConfirmDialog
          title={`Revoke ${revoking.name}?`}
          message="The device stops syncing at once and says it was revoked. What it saved but did not send stays on it until it is paired again."
          confirm="Revoke"
          action={() => adminApi.revokeKiosk(revoking.kioskId)}
          onClose={() => setRevoking(null)}
          onDone={() => {
            setRevoking(null);
            void kiosks.reload();
          }}
        />
      ) : null}
    </section>
  );
}
