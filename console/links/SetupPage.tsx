import { type FormEvent, useState } from 'react';
import type { StaffUserAnswer } from '../../shared/src/client/staff';
import { staffApi } from '../api';
import { ErrorMessage } from '../components/ErrorMessage';
import { Field } from '../components/Field';
import { useAction } from '../components/useAction';
import { UnusableLink, refusedFields, useFieldErrors } from './linkForm';
import { useWords } from '../language/ConsoleLanguage';
import { passwordProblem, useLink } from './useLink';

/** /console/setup?code=: the account's first owner chooses a name, email and password, and is signed in. */
export function SetupPage({ code, onSignedIn }: { code: string; onSignedIn: (user: StaffUserAnswer) => void }) {
  const words = useWords();
  const link = useLink(code);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { errors, setErrors, edit } = useFieldErrors();
  const action = useAction();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found: Record<string, string> = {};
    if (name.trim() === '') found.name = words.t('link.noName');
    if (!/^\S+@\S+\.\S+$/.test(email.trim())) found.email = words.t('setup.badEmail');
    const weak = passwordProblem(words, password);
    if (weak) found.password = weak;
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    let refused: Record<string, string> = {};
    const answer = await action.run(async () => {
      const outcome = await staffApi.setup({ code, name: name.trim(), email: email.trim(), password });
      refused = refusedFields(outcome);
      return outcome;
    });
    // The server's reason for a field (a password too easy to guess) is shown at that field, in its words.
    const onFields = Object.fromEntries(
      Object.entries(refused).filter(([path]) => ['name', 'email', 'password'].includes(path)),
    );
    if (Object.keys(onFields).length > 0) {
      setErrors(onFields);
      action.setError(null);
    }
    if (answer) onSignedIn(answer.user);
  };

  if (link.kind === 'loading') return <main className="card narrow" aria-busy="true" />;
  if (link.kind === 'failed' || link.link.kind !== 'setup') {
    return (
      <UnusableLink
        title={words.t('setup.title')}
        message={link.kind === 'failed' ? link.message : words.t('setup.notSetupLink')}
      />
    );
  }
  return (
    <main className="card narrow">
      <h1>{words.t('setup.title')}</h1>
      <p>{words.t('setup.explain', { account: link.link.accountName })}</p>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Field
          label={words.t('link.name')}
          autoComplete="name"
          value={name}
          onChange={edit('name', setName)}
          error={errors.name}
        />
        <Field
          label={words.t('link.email')}
          type="email"
          autoComplete="username"
          value={email}
          onChange={edit('email', setEmail)}
          error={errors.email}
        />
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
          {words.t('setup.submit')}
        </button>
      </form>
    </main>
  );
}
