import { useCallback } from 'react';
import { useNavigate, useParams } from 'react-router';
import { adminApi } from '../api';
import { useLoaded } from '../components/useLoaded';
import { useWords } from '../language/ConsoleLanguage';
import { FormEditor } from './FormEditor';

/** `/console/sites/:siteId/form`: one site's check-in form editor, named by the sites list it shares with Sites. */
export function SiteFormPage() {
  const words = useWords();
  const navigate = useNavigate();
  const siteId = Number(useParams().siteId);
  const read = useCallback(() => adminApi.listSites({ archived: true }), []);
  const sites = useLoaded(['sites', 'with archived'], read);
  const back = useCallback(() => void navigate('/console/sites'), [navigate]);
  if (!Number.isInteger(siteId) || siteId <= 0) return <p className="empty">{words.t('siteForm.noSuchSite')}</p>;
  const site = sites.value?.data.find((candidate) => candidate.siteId === siteId);
  return (
    <FormEditor
      key={siteId}
      siteId={siteId}
      siteName={site?.name ?? words.t('common.siteNumbered', { id: String(siteId) })}
      onBack={back}
    />
  );
}
