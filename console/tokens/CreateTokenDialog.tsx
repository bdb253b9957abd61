import { type FormEvent, useId, useState } from 'react';
import type { CreatedTokenAnswer, SiteAnswer } from '../../shared/src/client/administration';
import { isKnown } from '../../shared/src/client/answers';
import { type Scope, defaultScopes } from '../../shared/src/schemas/admin';
import { roleScopes, roles } from '../../shared/src/schemas/staff';
import { adminApi, newKey } from '../api';
import { Dialog } from '../components/Dialog';
import { ErrorMessage } from '../components/ErrorMessage';
import { Field } from '../components/Field';
import { DoneButton, FormButtons } from '../components/FormButtons';
import { ShownOnce } from '../components/ShownOnce';
import { useAction } from '../components/useAction';
import { useWords } from '../language/ConsoleLanguage';
import { richWords } from '../language/richWords';
import { useSession } from '../session/SessionContext';

/** Tomorrow as a date input's value (YYYY-MM-DD), where the browser is. */
function tomorrow(): string {
  const day = new Date(Date.now() + 86_400_000);
  return `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, '0')}-${String(day.getDate()).padStart(2, '0')}`;
}

/** The token's plaintext, this once, with a copy button. */
function CreatedToken({ created, onClose }: { created: CreatedTokenAnswer; onClose: () => void }) {
  const words = useWords();
  return (
    <Dialog title={words.t('tokens.createdNamed', { name: created.name })} onClose={onClose}>
      <ShownOnce
        label={words.t('tokens.created.token')}
        value={created.token}
        warning={words.t('tokens.created.warning')}
      />
      <p className="hint">{richWords(words, 'tokens.created.hint', { code: (chunks) => <code>{chunks}</code> })}</p>
      <DoneButton onClose={onClose} />
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
  const words = useWords();
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
        ? words.t('tokens.create.noName')
        : chosen.length === 0
          ? words.t('tokens.create.noScope')
          : !allSites && siteIds.length === 0
            ? words.t('tokens.create.noSites')
            : expiresAt !== undefined && Date.parse(expiresAt) <= Date.now()
              ? words.t('tokens.create.pastExpiry')
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
    <Dialog title={words.t('tokens.create')} onClose={onClose}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Field label={words.t('tokens.create.name')} value={name} onChange={setName} maxLength={200} />
        <fieldset className="choices">
          <legend>{words.t('tokens.create.scopes')}</legend>
          {mine.map((scope) => (
            <label key={scope} className="choice">
              <input
                type="checkbox"
                checked={chosen.includes(scope)}
                onChange={(event) => setChosen(toggle(chosen, scope, event.target.checked))}
              />
              <span className="choice-text">
                {scope} <span className="muted">{words.t(`scope.${scope}`)}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <fieldset className="choices">
          <legend>{words.t('common.sites')}</legend>
          {user.allSites ? (
            <label className="choice">
              <input type="checkbox" checked={allSites} onChange={(event) => setAllSites(event.target.checked)} />
              <span className="choice-text">
                {words.t('common.allSites')} <span className="muted">{words.t('tokens.create.nowAndFuture')}</span>
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
          <label htmlFor={expiryId}>{words.t('tokens.create.expires')}</label>
          <input
            id={expiryId}
            type="date"
            min={tomorrow()}
            value={expires}
            onChange={(event) => setExpires(event.target.value)}
          />
        </div>
        <ErrorMessage text={problem ?? action.error} />
        <FormButtons submit={words.t('tokens.create')} busy={action.busy} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
