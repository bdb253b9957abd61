import { useCallback, useState } from 'react';
import { ListTable } from '../components/ListTable';
import type { TokenAnswer } from '../../shared/src/client/administration';
import { adminApi } from '../api';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ErrorMessage } from '../components/ErrorMessage';
import { since } from '../components/time';
import { useLoaded } from '../components/useLoaded';
import { useWords } from '../language/ConsoleLanguage';
import { CreateTokenDialog } from './CreateTokenDialog';
import './tokens.css';

const day = (iso: string) =>
  new Date(iso).toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' });

/** The account's API tokens (kiosks' tokens are on the Kiosks page): create one, shown once; revoke one. */
export function TokensScreen() {
  const words = useWords();
  const readTokens = useCallback(() => adminApi.listTokens({ channel: 'API' }), []);
  const readSites = useCallback(() => adminApi.listSites({ archived: true }), []);
  const tokens = useLoaded(['tokens', 'API'], readTokens);
  const sites = useLoaded(['sites', 'with archived'], readSites);
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<TokenAnswer | null>(null);
  const siteList = sites.value?.data ?? [];
  const list = tokens.value?.data ?? [];
  const sitesOf = (token: TokenAnswer) =>
    token.allSites
      ? words.t('common.allSites')
      : token.siteIds
          .map(
            (id) =>
              siteList.find((site) => site.siteId === id)?.name ?? words.t('common.siteNumbered', { id: String(id) }),
          )
          .join(', ') || words.t('common.none');

  return (
    <section aria-labelledby="tokens-title">
      <div className="page-head">
        <h1 id="tokens-title">{words.t('nav.tokens')}</h1>
        <button type="button" className="primary" onClick={() => setCreating(true)}>
          {words.t('tokens.create')}
        </button>
      </div>
      <p className="hint">{words.t('tokens.hint')}</p>
      <ErrorMessage text={tokens.error ?? sites.error} />
      {tokens.value === null && !tokens.error ? <p aria-busy="true">{words.t('common.loading')}</p> : null}
      {tokens.value !== null && list.length === 0 ? <p className="empty">{words.t('tokens.empty')}</p> : null}
      {list.length > 0 ? (
        <ListTable
          rows={list}
          rowKey={(token) => token.tokenId}
          columns={[
            { header: words.t('tokens.column.name'), cell: (token) => token.name },
            { header: words.t('common.sites'), cell: (token) => sitesOf(token) },
            {
              header: words.t('tokens.column.scopes'),
              cell: (token) => <span className="scopes">{token.scopes.join(' ')}</span>,
            },
            {
              header: words.t('tokens.column.lastUsed'),
              cell: (token) => (token.lastUsedAt ? since(token.lastUsedAt) : words.t('common.never')),
            },
            {
              header: words.t('tokens.column.expires'),
              cell: (token) => (token.expiresAt ? day(token.expiresAt) : words.t('common.never')),
            },
          ]}
          actions={(token) => (
            <>
              <button type="button" className="danger" onClick={() => setRevoking(token)}>
                {words.t('common.revoke')}
              </button>
            </>
          )}
        />
      ) : null}
      {creating ? (
        <CreateTokenDialog
          sites={siteList.filter((site) => !site.archivedAt)}
          onClose={() => setCreating(false)}
          onCreated={() => void tokens.reload()}
        />
      ) : null}
      {revoking ? (
        <ConfirmDialog
          title={words.t('common.revokeNamed', { name: revoking.name })}
          message={words.t('tokens.revokeMessage')}
          confirm={words.t('common.revoke')}
          action={() => adminApi.revokeToken(revoking.tokenId)}
          onClose={() => setRevoking(null)}
          onDone={() => {
            setRevoking(null);
            void tokens.reload();
          }}
        />
      ) : null}
    </section>
  );
}
