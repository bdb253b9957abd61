import { type FormEvent, useState } from 'react';
import type { SiteAnswer } from '../../shared/src/client/administration';
import { adminApi, newKey } from '../api';
import { Checkbox } from '../components/Choice';
import { Dialog } from '../components/Dialog';
import { ErrorMessage } from '../components/ErrorMessage';
import { FormButtons } from '../components/FormButtons';
import { useAction } from '../components/useAction';

/** How the Sites table says a site's phone check-ins: its code, and whether they wait for approval. */
export const visitWords = (visit: SiteAnswer['visit']) =>
  visit.code === '' ? 'Off' : `${visit.code}${visit.requiresApproval ? ' · need approval' : ''}`;

/**
 * A site's phone check-ins (docs/running-a-site.md, The visitor's phone): whether they wait for approval,
 * and a new visit code when a poster was misused (the old code and its poster stop at once).
 */
export function VisitDialog({ site, onClose, onDone }: { site: SiteAnswer; onClose: () => void; onDone: () => void }) {
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
    <Dialog title={`Phone check-ins at ${site.name}`} onClose={onClose}>
      <p>
        Visit code: <strong>{site.visit.code}</strong>. Visitors scan the QR poster at the door and check in on their
        own phone.
      </p>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Checkbox label="QR check-ins need approval" checked={needsApproval} onChange={setNeedsApproval} />
        <ErrorMessage text={action.error} />
        <FormButtons submit="Save" busy={action.busy} onCancel={onClose} />
      </form>
      {rotating ? (
        <div role="group" aria-label="New visit code">
          <p>The old code and every poster printed with it stop working at once. Print the new poster.</p>
          <button type="button" className="danger" disabled={action.busy} onClick={() => void rotate()}>
            Make a new code
          </button>
        </div>
      ) : (
        <button type="button" onClick={() => setRotating(true)}>
          New visit code
        </button>
      )}
    </Dialog>
  );
}
