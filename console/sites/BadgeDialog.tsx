import { type FormEvent, useState } from 'react';
import type { SiteAnswer } from '../../shared/src/client/administration';
import { type BadgeSize, badgePages, badgeSizes } from '../../shared/src/domain/badge';
import { adminApi, newKey } from '../api';
import { Checkbox, Select } from '../components/Choice';
import { Dialog } from '../components/Dialog';
import { ErrorMessage } from '../components/ErrorMessage';
import { FormButtons } from '../components/FormButtons';
import { useAction } from '../components/useAction';
import type { ConsoleWords } from '../language/consoleWords';
import { useWords } from '../language/ConsoleLanguage';

/** How the Sites table says a site's badges: "Off", or "On · DYMO 99014 (54 × 101 mm)". */
export const badgeWords = (words: ConsoleWords, badge: SiteAnswer['badge']) =>
  badge.enabled ? words.t('sites.badges.on', { size: badgePages[badge.size].label }) : words.t('sites.off');

/**
 * A site's visitor badges (docs/running-a-site.md, Badges): printed or not, and on which label. Kiosks print
 * each admitted visitor's badge; On site now offers Print badge.
 */
export function BadgeDialog({ site, onClose, onDone }: { site: SiteAnswer; onClose: () => void; onDone: () => void }) {
  const words = useWords();
  const [enabled, setEnabled] = useState(site.badge.enabled);
  const [size, setSize] = useState<BadgeSize>(site.badge.size);
  const action = useAction();
  const [key] = useState(newKey);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await action.run(() => adminApi.updateSite(site.siteId, { badge: { enabled, size } }, key))) onDone();
  };
  return (
    <Dialog title={words.t('sites.badges.title', { name: site.name })} onClose={onClose}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Checkbox label={words.t('sites.badges.print')} checked={enabled} onChange={setEnabled} />
        <Select
          label={words.t('sites.badges.size')}
          value={size}
          onChange={(value) => setSize(badgeSizes.find((known) => known === value) ?? size)}
        >
          {badgeSizes.map((known) => (
            <option key={known} value={known}>
              {badgePages[known].label}
            </option>
          ))}
        </Select>
        <ErrorMessage text={action.error} />
        <FormButtons submit={words.t('common.save')} busy={action.busy} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
