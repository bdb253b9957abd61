import { useCallback, useState } from 'react';
import { ListTable } from '../components/ListTable';
import type { TokenAnswer } from '../../shared/src/client/administration';
import { adminApi } from '../api';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ErrorMessage } from '../components/ErrorMessage';
import { since } from '../components/time';
import { useLoaded } from '../components/useLoaded';
import { CreateTokenDialog } from './CreateTokenDialog';
import './tokens.css';

const day = (iso: string) =>
  new Date(iso).toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' });

/** The account's API tokens (kiosks' tokens are on the Kiosks page): create one, shown once; revoke one. */
export function TokensScreen() {
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
      ? 'All sites'
      : token.siteIds.map((id) => siteList.find((site) => site.siteId === id)?.name ?? `Site ${id}`).join(', ') ||
        'None';

  return (
    <section aria-labelledby="tokens-title">
      <div className="page-head">
        <h1 id="tokens-title">API tokens</h1>
        <button type="button" className="primary" onClick={() => setCreating(true)}>
          Create token
        </button>
      </div>
      <p className="hint">Tokens let other systems use the API. Kiosks get theirs when they are paired (see Kiosks).</p>
      <ErrorMessage text={tokens.error ?? sites.error} />
      {tokens.value === null && !tokens.error ? <p aria-busy="true">Loading…</p> : null}
      {tokens.value !== null && list.length === 0 ? <p className="empty">No API tokens.</p> : null}
      {list.length > 0 ? (
        <ListTable
          rows={list}
          rowKey={(token) => token.tokenId}
          columns={[
            { header: 'Name', cell: (token) => token.name },
            { header: 'Sites', cell: (token) => sitesOf(token) },
            { header: 'Scopes', cell: (token) => <span className="scopes">{token.scopes.join(' ')}</span> },
            { header: 'Last used', cell: (token) => (token.lastUsedAt ? since(token.lastUsedAt) : 'Never') },
            { header: 'Expires', cell: (token) => (token.expiresAt ? day(token.expiresAt) : 'Never') },
          ]}
          actions={(token) => (
            <>
              <button type="button" className="danger" onClick={() => setRevoking(token)}>
                Revoke
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
          title={`Revoke ${revoking.name}?`}
          message="Every request with this token is refused from now on. This cannot be undone."
          confirm="Revoke"
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
