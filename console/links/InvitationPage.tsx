import { type FormEvent, useEffect, useState } from 'react';
import type { StaffUserAnswer } from '../../shared/src/client/staff';
import { staffApi } from '../api';
import { ErrorMessage } from '../components/ErrorMessage';
import { Field } from '../components/Field';
import { useAction } from '../components/useAction';
import { UnusableLink, refusedFields, useFieldErrors } from './linkForm';
import { useWords } from '../language/ConsoleLanguage';
import { passwordProblem, useLink } from './useLink';

/** /console/invitation?code=: an invited user sets a name and password; a reset link asks only a password. */
export function InvitationPage({ code, onSignedIn }: { code: string; onSignedIn: (user: StaffUserAnswer) => void }) {
  const words = useWords();
  const link = useLink(code);
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const { errors, setErrors, edit } = useFieldErrors();
  const action = useAction();
  const isReset = link.kind === 'ready' && link.link.kind === 'reset';

  useEffect(() => {
    if (link.kind === 'ready' && link.link.name) setName(link.link.name);
  }, [link]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found: Record<string, string> = {};
    if (!isReset && name.trim() === '') found.name = words.t('link.noName');
    const weak = passwordProblem(words, password);
    if (weak) found.password = weak;
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const body = isReset ? { code, password } : { code, name: name.trim(), password };
    let refused: Record<string, string> = {};
    const answer = await action.run(async () => {
      const outcome = await staffApi.redeemInvitation(body);
      refused = refusedFields(outcome);
      return outcome;
    });
    // The server's reason for a field (a password too easy to guess) is shown at that field, in its words.
    const onFields = Object.fromEntries(
      Object.entries(refused).filter(([path]) => ['name', 'password'].includes(path)),
    );
    if (Object.keys(onFields).length > 0) {
      setErrors(onFields);
      action.setError(null);
    }
    if (answer) onSignedIn(answer.user);
  };

  if (link.kind === 'loading') return <main className="card narrow" aria-busy="true" />;
  if (link.kind === 'failed' || link.link.kind === 'setup') {
    const message = link.kind === 'failed' ? link.message : words.t('invitation.setupLink');
    return <UnusableLink title={words.t('invitation.title')} message={message} />;
  }
  return (
    <main className="card narrow">
      <h1>{isReset ? words.t('invitation.reset') : words.t('invitation.join', { account: link.link.accountName })}</h1>
      {link.link.email ? <p>{words.t('invitation.for', { email: link.link.email })}</p> : null}
      <form onSubmit={(event) => void submit(event)} noValidate>
        {isReset ? null : (
          <Field
            label={words.t('link.name')}
            autoComplete="name"
            value={name}
            onChange={edit('name', setName)}
            error={errors.name}
          />
        )}
        <Field
          label={words.t('link.password')}
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={edit('password', setPassword)}
          error={errors.password}
        />
        <p className="hint">{words.t('password.hint')}</p>
        <ErrorMessage text={action.error} />
        <button className="primary" type="submit" disabled={action.busy}>
          {words.t('invitation.submit')}
        </button>
      </form>
    </main>
  );
}
