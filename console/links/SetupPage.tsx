import { useState } from 'react';
import type { StaffUserAnswer } from '../../shared/src/client/staff';
import { staffApi } from '../api';
import { Field } from '../components/Field';
import { UnusableLink } from './linkForm';
import { useWords } from '../language/ConsoleLanguage';
import { PasswordForm, usePasswordForm } from './PasswordForm';
import { useLink } from './useLink';

/** /console/setup?code=: the account's first owner chooses a name, email and password, and is signed in. */
export function SetupPage({ code, onSignedIn }: { code: string; onSignedIn: (user: StaffUserAnswer) => void }) {
  const words = useWords();
  const link = useLink(code);
  const [email, setEmail] = useState('');
  const form = usePasswordForm({ askName: true, onSignedIn });

  const submit = () => {
    const problems: Record<string, string> = {};
    if (!/^\S+@\S+\.\S+$/.test(email.trim())) problems.email = words.t('setup.badEmail');
    const body = { code, name: form.name.trim(), email: email.trim(), password: form.password };
    void form.send(() => staffApi.setup(body), { names: ['email'], problems });
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
      <PasswordForm form={form} submitLabel={words.t('setup.submit')} onSubmit={submit}>
        <Field
          label={words.t('link.email')}
          type="email"
          autoComplete="username"
          value={email}
          onChange={form.edit('email', setEmail)}
          error={form.errors.email}
        />
      </PasswordForm>
    </main>
  );
}
