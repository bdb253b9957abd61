import { type FormEvent, useState } from 'react';
import type { SiteAnswer } from '../../shared/src/client/administration';
import { adminApi, newKey } from '../api';
import { Checkbox } from '../components/Choice';
import { Dialog } from '../components/Dialog';
import { ErrorMessage } from '../components/ErrorMessage';
import { FormButtons } from '../components/FormButtons';
import { useAction } from '../components/useAction';
import type { ConsoleWords } from '../language/consoleWords';
import { useWords } from '../language/ConsoleLanguage';
import { richWords } from '../language/richWords';

/** How the Sites table says a site's phone check-ins: its code, and whether they wait for approval. */
export const visitWords = (words: ConsoleWords, visit: SiteAnswer['visit']) =>
  visit.code === ''
    ? words.t('sites.off')
    : visit.requiresApproval
      ? words.t('sites.visit.needApproval', { code: visit.code })
      : visit.code;

/**
 * A site's phone check-ins (docs/running-a-site.md, The visitor's phone): whether they wait for approval,
 * and a new visit code when a poster was misused (the old code and its poster stop at once).
 */
export function VisitDialog({ site, onClose, onDone }: { site: SiteAnswer; onClose: () => void; onDone: () => void }) {
  const words = useWords();
  const [needsApproval, setNeedsApproval] = useState(site.visit.requiresApproval);
  const [rotating, setRotating] = useState(false);
  const action = useAction();
  const [key] = useState(newKey);
  const [rotateKey] = useState(newKey);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const saved = await action.run(() =>
      adminApi.updateSite(site.siteId, { visit: { requiresApproval: needsApproval } }, key),
    );
    if (saved) onDone();
  };
  const rotate = async () => {
    if (await action.run(() => adminApi.rotateVisitCode(site.siteId, rotateKey))) onDone();
  };
  return (
    <Dialog title={words.t('sites.visit.title', { name: site.name })} onClose={onClose}>
      <p>{richWords(words, 'sites.visit.code', { code: site.visit.code, b: (chunks) => <strong>{chunks}</strong> })}</p>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Checkbox label={words.t('sites.visit.approval')} checked={needsApproval} onChange={setNeedsApproval} />
        <ErrorMessage text={action.error} />
        <FormButtons submit={words.t('common.save')} busy={action.busy} onCancel={onClose} />
      </form>
      {rotating ? (
        <div role="group" aria-label={words.t('sites.visit.newCode')}>
          <p>{words.t('sites.visit.newCode.warning')}</p>
          <button type="button" className="danger" disabled={action.busy} onClick={() => void rotate()}>
            {words.t('sites.visit.newCode.make')}
          </button>
        </div>
      ) : (
        <button type="button" onClick={() => setRotating(true)}>
          {words.t('sites.visit.newCode')}
        </button>
      )}
    </Dialog>
  );
}
