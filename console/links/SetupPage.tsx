import { type FormEvent, useState } from 'react';
import type { StaffUserAnswer } from '../../shared/src/client/staff';
import { staffApi } from '../api';
import { ErrorMessage } from '../components/ErrorMessage';
import { Field } from '../components/Field';
import { useAction } from '../components/useAction';
import { UnusableLink, refusedFields, useFieldErrors } from './linkForm';
import { passwordHint, passwordProblem, useLink } from './useLink';

/** /console/setup?code=: the account's first owner chooses a name, email and password, and is signed in. */
export function SetupPage({ code, onSignedIn }: { code: string; onSignedIn: (user: StaffUserAnswer) => void }) {
  const link = useLink(code);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { errors, setErrors, edit } = useFieldErrors();
  const action = useAction();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found: Record<string, string> = {};
    if (name.trim() === '') found.name = 'Enter your name.';
    if (!/^\S+@\S+\.\S+$/.test(email.trim())) found.email = 'Enter an email address, like name@example.com.';
    const weak = passwordProblem(password);
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
        title="Set up Gatehouse"
        message={link.kind === 'failed' ? link.message : 'This is not a setup link.'}
      />
    );
  }
  return (
    <main className="card narrow">
      <h1>Set up Gatehouse</h1>
      <p>Create the first owner of {link.link.accountName}. The owner can invite the rest of the staff.</p>
      <form onSubmit={submit} noValidate>
        <Field label="Name" autoComplete="name" value={name} onChange={edit('name', setName)} error={errors.name} />
        <Field
          label="Email"
          type="email"
          autoComplete="username"
          value={email}
          onChange={edit('email', setEmail)}
          error={errors.email}
        />
        <Field
          label="Password"
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={edit('password', setPassword)}
          error={errors.password}
        />
        <p className="hint">{passwordHint}</p>
        <ErrorMessage text={action.error} />
        <button className="primary" type="submit" disabled={action.busy}>
          Create owner
        </button>
      </form>
    </main>
  );
}
