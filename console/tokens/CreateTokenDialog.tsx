import { type FormEvent, useId, useState } from 'react';
import type { CreatedTokenAnswer, SiteAnswer } from '../../shared/src/client/administration';
import { isKnown } from '../../shared/src/client/answers';
import { type Scope, defaultScopes } from '../../shared/src/schemas/admin';
import { roleScopes, roles } from '../../shared/src/schemas/staff';
import { adminApi, newKey } from '../api';
import { Dialog } from '../components/Dialog';
import { ErrorMessage } from '../components/ErrorMessage';
import { Field } from '../components/Field';
import { FormButtons } from '../components/FormButtons';
import { ShownOnce } from '../components/ShownOnce';
import { useAction } from '../components/useAction';
import { useSession } from '../session/SessionContext';
import { scopeWords } from './scopeWords';

/** Tomorrow as a date input's value (YYYY-MM-DD), where the browser is. */
function tomorrow(): string {
  const day = new Date(Date.now() + 86_400_000);
  return `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, '0')}-${String(day.getDate()).padStart(2, '0')}`;
}

/** The token's plaintext, this once, with a copy button. */
function CreatedToken({ created, onClose }: { created: CreatedTokenAnswer; onClose: () => void }) {
  return (
    <Dialog title={`Token ${created.name}`} onClose={onClose}>
      <ShownOnce label="Token" value={created.token} warning="You will not see this token again." />
      <p className="hint">
        Systems send it in the header <code>Authorization: Bearer</code> and the token. Keep it in a secret store, not
        in code.
      </p>
      <div className="buttons">
        <button type="button" className="primary" onClick={onClose}>
          Done
        </button>
      </div>
    </Dialog>
  );
}

/** Create token: Name, scopes (only the user's own), sites or All sites, an optional expiry date. */
export function CreateTokenDialog({
  sites,
  onClose,
  onCreated,
}: {
  sites: readonly SiteAnswer[];
  onClose: () => void;
  onCreated: () => void;
}) {
  const { user } = useSession();
  const mine: readonly Scope[] = isKnown(roles, user.role) ? roleScopes[user.role] : [];
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<Scope[]>(() => defaultScopes.filter((scope) => mine.includes(scope)));
  const [allSites, setAllSites] = useState(user.allSites);
  const [siteIds, setSiteIds] = useState<number[]>([]);
  const [expires, setExpires] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedTokenAnswer | null>(null);
  const action = useAction();
  const [key] = useState(newKey);
  const expiryId = useId();

  if (created) return <CreatedToken created={created} onClose={onClose} />;

  const toggle = <T,>(list: T[], item: T, on: boolean) => (on ? [...list, item] : list.filter((each) => each !== item));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // The end of the chosen day, where the browser is.
    const expiresAt = expires === '' ? undefined : new Date(`${expires}T23:59:59`).toISOString();
    const refusal =
      name.trim() === ''
        ? 'Give the token a name, such as the system that uses it.'
        : chosen.length === 0
          ? 'Choose at least one scope.'
          : !allSites && siteIds.length === 0
            ? 'Choose the sites the token may use, or All sites.'
            : expiresAt !== undefined && Date.parse(expiresAt) <= Date.now()
              ? 'Choose an expiry date after today, or none.'
              : null;
    setProblem(refusal);
    if (refusal) return;
    const sitesPart = allSites ? { allSites: true } : { siteIds };
    const made = await action.run(() =>
      adminApi.createToken({ name: name.trim(), scopes: chosen, ...sitesPart, expiresAt }, key),
    );
    if (made) {
      setCreated(made);
      onCreated();
    }
  };

  return (
    <Dialog title="Create token" onClose={onClose}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Field label="Name" value={name} onChange={setName} maxLength={200} />
        <fieldset className="choices">
          <legend>Scopes</legend>
          {mine.map((scope) => (
            <label key={scope} className="choice">
              <input
                type="checkbox"
                checked={chosen.includes(scope)}
                onChange={(event) => setChosen(toggle(chosen, scope, event.target.checked))}
              />
              <span className="choice-text">
                {scope} <span className="muted">{scopeWords[scope]}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <fieldset className="choices">
          <legend>Sites</legend>
          {user.allSites ? (
            <label className="choice">
              <input type="checkbox" checked={allSites} onChange={(event) => setAllSites(event.target.checked)} />
              <span className="choice-text">
                All sites <span className="muted">now and future</span>
              </span>
            </label>
          ) : null}
          {allSites
            ? null
            : sites.map((site) => (
                <label key={site.siteId} className="choice">
                  <input
                    type="checkbox"
                    checked={siteIds.includes(site.siteId)}
                    onChange={(event) => setSiteIds(toggle(siteIds, site.siteId, event.target.checked))}
                  />
                  <span className="choice-text">{site.name}</span>
                </label>
              ))}
        </fieldset>
        <div className="field">
          <label htmlFor={expiryId}>Expires (optional)</label>
          <input
            id={expiryId}
            type="date"
            min={tomorrow()}
            value={expires}
            onChange={(event) => setExpires(event.target.value)}
          />
        </div>
        <ErrorMessage text={problem ?? action.error} />
        <FormButtons submit="Create token" busy={action.busy} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
