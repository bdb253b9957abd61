import { useCallback, useState } from 'react';
import { ListTable } from '../components/ListTable';
import type { SiteAnswer } from '../../shared/src/client/administration';
import { adminApi, newKey } from '../api';
import { ErrorMessage } from '../components/ErrorMessage';
import { useAction } from '../components/useAction';
import { useLoaded } from '../components/useLoaded';
import { useNavigate } from 'react-router';
import { useSession } from '../session/SessionContext';
import { AddSiteDialog, EditSiteDialog } from './SiteDialogs';
import { BadgeDialog, badgeWords } from './BadgeDialog';
import { VisitDialog, visitWords } from './VisitDialog';
import { LanguageDialog, languageWords } from './LanguageDialog';
import './sites.css';

const PATH = '/console/sites';
type Editing = { site: SiteAnswer; what: 'name' | 'timezone' | 'badges' | 'language' | 'visit' };

/** The user's sites, archived ones too: add (all-sites users), rename, time zone, archive or restore, Edit form. */
export function SitesScreen() {
  const { user } = useSession();
  const navigate = useNavigate();
  const read = useCallback(() => adminApi.listSites({ archived: true }), []);
  const sites = useLoaded(['sites', 'with archived'], read);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<Editing | null>(null);
  const archive = useAction();
  const list = sites.value?.data ?? [];

  const setArchived = async (site: SiteAnswer, archived: boolean) => {
    if (await archive.run(() => adminApi.updateSite(site.siteId, { archived }, newKey()))) void sites.reload();
  };
  const done = () => {
    setAdding(false);
    setEditing(null);
    void sites.reload();
  };

  return (
    <section aria-labelledby="sites-title">
      <div className="page-head">
        <h1 id="sites-title">Sites</h1>
        {/* A new site is visible to every all-sites user at once; others could not see it. */}
        {user.allSites ? (
          <button type="button" className="primary" onClick={() => setAdding(true)}>
            Add a site
          </button>
        ) : null}
      </div>
      <ErrorMessage text={sites.error ?? archive.error} />
      {sites.value === null && !sites.error ? <p aria-busy="true">Loading…</p> : null}
      {sites.value !== null && list.length === 0 ? <p className="empty">No sites yet.</p> : null}
      {list.length > 0 ? (
        <ListTable
          rows={list}
          rowKey={(site) => site.siteId}
          columns={[
            { header: 'Name', cell: (site) => site.name },
            { header: 'Time zone', cell: (site) => site.timezone.replaceAll('_', ' ') },
            {
              header: 'Status',
              cell: (site) => (site.archivedAt ? <span className="muted">Archived: no new check-ins</span> : 'Open'),
            },
            { header: 'Badges', cell: (site) => badgeWords(site.badge) },
            { header: 'Language', cell: (site) => languageWords(site.defaultLanguage) },
            { header: 'Phone check-ins', cell: (site) => visitWords(site.visit) },
          ]}
          actions={(site) => (
            <>
              <button type="button" onClick={() => void navigate(`${PATH}/${site.siteId}/form`)}>
                Edit form
              </button>
              <button type="button" onClick={() => setEditing({ site, what: 'name' })}>
                Rename
              </button>
              <button type="button" onClick={() => setEditing({ site, what: 'timezone' })}>
                Time zone
              </button>
              <button type="button" onClick={() => setEditing({ site, what: 'badges' })}>
                Badges
              </button>
              <button type="button" onClick={() => setEditing({ site, what: 'language' })}>
                Language
              </button>
              <button type="button" onClick={() => setEditing({ site, what: 'visit' })}>
                Phone check-ins
              </button>
              {site.visit.code === '' ? null : (
                // The cookie goes with a same-site download; the PDF opens in the browser's viewer.
                <a className="button" href={`/v1/sites/${site.siteId}/visit-poster.pdf`} target="_blank" rel="noopener">
                  QR poster
                </a>
              )}
              {site.archivedAt ? (
                <button type="button" disabled={archive.busy} onClick={() => void setArchived(site, false)}>
                  Restore
                </button>
              ) : (
                <button type="button" disabled={archive.busy} onClick={() => void setArchived(site, true)}>
                  Archive
                </button>
              )}
            </>
          )}
        />
      ) : null}
      {adding ? <AddSiteDialog onClose={() => setAdding(false)} onDone={done} /> : null}
      {editing?.what === 'badges' ? (
        <BadgeDialog site={editing.site} onClose={() => setEditing(null)} onDone={done} />
      ) : editing?.what === 'language' ? (
        <LanguageDialog site={editing.site} onClose={() => setEditing(null)} onDone={done} />
      ) : editing?.what === 'visit' ? (
        <VisitDialog site={editing.site} onClose={() => setEditing(null)} onDone={done} />
      ) : editing ? (
        <EditSiteDialog site={editing.site} what={editing.what} onClose={() => setEditing(null)} onDone={done} />
      ) : null}
    </section>
  );
}
