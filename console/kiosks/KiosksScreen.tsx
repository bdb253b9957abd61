import { useCallback, useState } from 'react';
import { ListTable } from '../components/ListTable';
import type { KioskAnswer, PairingCodeAnswer } from '../../shared/src/client/administration';
import { adminApi, newKey } from '../api';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ErrorMessage } from '../components/ErrorMessage';
import { since } from '../components/time';
import { useAction } from '../components/useAction';
import { useLoaded } from '../components/useLoaded';
import { useWords } from '../language/ConsoleLanguage';
import { siteLookup } from '../live/siteLookup';
import { AddKioskDialog, CodeDialog, modeWords } from './KioskDialogs';
import './kiosks.css';

/** Kiosks report about once a minute: the list is read again as often. */
const REFRESH_MS = 30_000;
const count = (value: number | null) => (value === null ? '—' : String(value));

/** The kiosks of the user's sites with what their last heartbeat said; add one, pair it again, revoke it. */
export function KiosksScreen() {
  const words = useWords();
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
  const lookup = siteLookup(words, siteList);

  const newCode = async (kiosk: KioskAnswer) => {
    const made = await pairing.run(() => adminApi.newPairingCode(kiosk.kioskId, newKey()));
    if (made) setCode({ name: kiosk.name, code: made });
  };

  return (
    <section aria-labelledby="kiosks-title">
      <div className="page-head">
        <h1 id="kiosks-title">{words.t('nav.kiosks')}</h1>
        <button type="button" className="primary" disabled={openSites.length === 0} onClick={() => setAdding(true)}>
          {words.t('kiosks.add')}
        </button>
      </div>
      <ErrorMessage text={kiosks.error ?? sites.error ?? pairing.error} />
      {kiosks.value === null && !kiosks.error ? <p aria-busy="true">{words.t('common.loading')}</p> : null}
      {kiosks.value !== null && list.length === 0 ? <p className="empty">{words.t('kiosks.empty')}</p> : null}
      {list.length > 0 ? (
        <ListTable
          rows={list}
          rowKey={(kiosk) => kiosk.kioskId}
          columns={[
            { header: words.t('kiosks.column.name'), cell: (kiosk) => kiosk.name },
            { header: words.t('common.site'), cell: (kiosk) => lookup.name(kiosk.siteId) },
            {
              header: words.t('kiosks.mode'),
              cell: (kiosk) => {
                const mode = modeWords[kiosk.mode];
                return mode ? words.t(mode) : kiosk.mode;
              },
            },
            {
              header: words.t('kiosks.column.lastSeen'),
              cell: (kiosk) =>
                kiosk.lastSeenAt
                  ? since(kiosk.lastSeenAt, lookup.zone(kiosk.siteId))
                  : kiosk.pairedAt
                    ? words.t('kiosks.notSeenYet')
                    : words.t('kiosks.notPairedYet'),
            },
            { header: words.t('kiosks.column.pending'), cell: (kiosk) => count(kiosk.pending) },
            {
              header: words.t('kiosks.column.attention'),
              cell: (kiosk) => count(kiosk.attention),
              className: (kiosk) => (kiosk.attention ? 'attention' : undefined),
            },
            { header: words.t('kiosks.column.appVersion'), cell: (kiosk) => kiosk.appVersion ?? '—' },
          ]}
          actions={(kiosk) => (
            <>
              <button type="button" disabled={pairing.busy} onClick={() => void newCode(kiosk)}>
                {words.t('kiosks.newCode')}
              </button>
              <button type="button" className="danger" onClick={() => setRevoking(kiosk)}>
                {words.t('common.revoke')}
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
          title={words.t('common.revokeNamed', { name: revoking.name })}
          message={words.t('kiosks.revokeMessage')}
          confirm={words.t('common.revoke')}
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
