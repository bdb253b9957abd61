import { type FormEvent, useState } from 'react';
import type { StaffUserAnswer } from '../../shared/src/client/staff';
import { staffApi } from '../api';
import { ErrorMessage } from '../components/ErrorMessage';
import { Field } from '../components/Field';
import { useWords } from '../language/ConsoleLanguage';
import { failureWords } from '../words';

/** /console signed out: email and password; the server says the same for a wrong email or password. */
export function SignInPage({ onSignedIn }: { onSignedIn: (user: StaffUserAnswer) => void }) {
  const words = useWords();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (email.trim() === '' || password === '') {
      setError(words.t('signIn.missing'));
      return;
    }
    setBusy(true);
    setError(null);
    const outcome = await staffApi.signIn(email.trim(), password);
    setBusy(false);
    if (outcome.kind === 'ok') onSignedIn(outcome.value.user);
    else if (outcome.kind === 'refused' && outcome.status === 401) setError(words.t('signIn.incorrect'));
    else if (outcome.kind !== 'notModified') setError(failureWords(words, outcome));
  };

  return (
    <main className="card narrow">
      <h1>{words.t('signIn.title')}</h1>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Field label={words.t('signIn.email')} type="email" autoComplete="username" value={email} onChange={setEmail} />
        <Field
          label={words.t('signIn.password')}
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={setPassword}
        />
        <ErrorMessage text={error} />
        <button className="primary" type="submit" disabled={busy}>
          {words.t('signIn.submit')}
        </button>
      </form>
    </main>
  );
}
