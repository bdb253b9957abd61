import { useCallback, useState } from 'react';
import { ListTable } from '../components/ListTable';
import type { SiteAnswer } from '../../shared/src/client/administration';
import { adminApi, newKey } from '../api';
import { ErrorMessage } from '../components/ErrorMessage';
import { useAction } from '../components/useAction';
import { useLoaded } from '../components/useLoaded';
import { useNavigate } from 'react-router';
import { useWords } from '../language/ConsoleLanguage';
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
  const words = useWords();
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
        <h1 id="sites-title">{words.t('nav.sites')}</h1>
        {/* A new site is visible to every all-sites user at once; others could not see it. */}
        {user.allSites ? (
          <button type="button" className="primary" onClick={() => setAdding(true)}>
            {words.t('sites.add')}
          </button>
        ) : null}
      </div>
      <ErrorMessage text={sites.error ?? archive.error} />
      {sites.value === null && !sites.error ? <p aria-busy="true">{words.t('common.loading')}</p> : null}
      {sites.value !== null && list.length === 0 ? <p className="empty">{words.t('sites.empty')}</p> : null}
      {list.length > 0 ? (
        <ListTable
          rows={list}
          rowKey={(site) => site.siteId}
          columns={[
            { header: words.t('sites.column.name'), cell: (site) => site.name },
            { header: words.t('sites.timezone'), cell: (site) => site.timezone.replaceAll('_', ' ') },
            {
              header: words.t('sites.column.status'),
              cell: (site) =>
                site.archivedAt ? <span className="muted">{words.t('sites.archived')}</span> : words.t('sites.open'),
            },
            { header: words.t('sites.badges'), cell: (site) => badgeWords(words, site.badge) },
            { header: words.t('sites.language'), cell: (site) => languageWords(words, site.defaultLanguage) },
            { header: words.t('sites.visit'), cell: (site) => visitWords(words, site.visit) },
          ]}
          actions={(site) => (
            <>
              <button type="button" onClick={() => void navigate(`${PATH}/${site.siteId}/form`)}>
                {words.t('sites.editForm')}
              </button>
              <button type="button" onClick={() => setEditing({ site, what: 'name' })}>
                {words.t('sites.rename')}
              </button>
              <button type="button" onClick={() => setEditing({ site, what: 'timezone' })}>
                {words.t('sites.timezone')}
              </button>
              <button type="button" onClick={() => setEditing({ site, what: 'badges' })}>
                {words.t('sites.badges')}
              </button>
              <button type="button" onClick={() => setEditing({ site, what: 'language' })}>
                {words.t('sites.language')}
              </button>
              <button type="button" onClick={() => setEditing({ site, what: 'visit' })}>
                {words.t('sites.visit')}
              </button>
              {site.visit.code === '' ? null : (
                // The cookie goes with a same-site download; the PDF opens in the browser's viewer.
                <a className="button" href={`/v1/sites/${site.siteId}/visit-poster.pdf`} target="_blank" rel="noopener">
                  {words.t('sites.poster')}
                </a>
              )}
              {site.archivedAt ? (
                <button type="button" disabled={archive.busy} onClick={() => void setArchived(site, false)}>
                  {words.t('sites.restore')}
                </button>
              ) : (
                <button type="button" disabled={archive.busy} onClick={() => void setArchived(site, true)}>
                  {words.t('sites.archive')}
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
