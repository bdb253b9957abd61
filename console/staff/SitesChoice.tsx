import type { Site } from '../../shared/src/schemas/sites';
import { CheckGroup, Checkbox } from '../components/Choice';
import { useWords } from '../language/ConsoleLanguage';

export interface SiteChoice {
  allSites: boolean;
  siteIds: number[];
}

/** "All sites" (now and future), or some of them. */
export function SitesChoice({
  sites,
  value,
  onChange,
  error,
}: {
  sites: readonly Site[];
  value: SiteChoice;
  onChange: (next: SiteChoice) => void;
  error?: string;
}) {
  const words = useWords();
  const toggle = (siteId: number, on: boolean) =>
    onChange({ ...value, siteIds: on ? [...value.siteIds, siteId] : value.siteIds.filter((id) => id !== siteId) });
  return (
    <CheckGroup legend={words.t('common.sites')} error={error}>
      <Checkbox
        label={words.t('common.allSites')}
        checked={value.allSites}
        onChange={(allSites) => onChange({ ...value, allSites })}
      />
      {value.allSites
        ? null
        : sites.map((site) => (
            <Checkbox
              key={site.siteId}
              label={site.name}
              checked={value.siteIds.includes(site.siteId)}
              onChange={(on) => toggle(site.siteId, on)}
            />
          ))}
    </CheckGroup>
  );
}

/** The request's part for a choice: an owner always has every site. */
export const sitesBody = (role: string, choice: SiteChoice) =>
  role === 'owner' || choice.allSites ? { allSites: true } : { siteIds: choice.siteIds };
