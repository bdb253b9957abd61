import { useId } from 'react';
import type { Site } from '../../shared/src/schemas/sites';
import { useWords } from '../language/ConsoleLanguage';

/** "Site": all the user's sites, or one of them (only shown when there is more than one). */
export function SiteFilter({
  sites,
  value,
  onChange,
}: {
  sites: readonly Site[];
  value: number | null;
  onChange: (siteId: number | null) => void;
}) {
  const id = useId();
  const words = useWords();
  if (sites.length < 2) return null;
  return (
    <div className="field inline">
      <label htmlFor={id}>{words.t('common.site')}</label>
      <select
        id={id}
        value={value ?? ''}
        onChange={(event) => onChange(event.target.value === '' ? null : Number(event.target.value))}
      >
        <option value="">{words.t('common.allSites')}</option>
        {sites.map((site) => (
          <option key={site.siteId} value={site.siteId}>
            {site.name}
          </option>
        ))}
      </select>
    </div>
  );
}
