import { useEffect } from 'react';
import type { StaffUserAnswer } from '../../shared/src/client/staff';
import { staffApi } from '../api';
import { UnusableLink } from './linkForm';
import { useWords } from '../language/ConsoleLanguage';
import { PasswordForm, usePasswordForm } from './PasswordForm';
import { useLink } from './useLink';

/** /console/invitation?code=: an invited user sets a name and password; a reset link asks only a password. */
export function InvitationPage({ code, onSignedIn }: { code: string; onSignedIn: (user: StaffUserAnswer) => void }) {
  const words = useWords();
  const link = useLink(code);
  const isReset = link.kind === 'ready' && link.link.kind === 'reset';
  const form = usePasswordForm({ askName: !isReset, onSignedIn });
  const { setName } = form;

  useEffect(() => {
    if (link.kind === 'ready' && link.link.name) setName(link.link.name);
  }, [link, setName]);

  const submit = () => {
    const { password } = form;
    const body = isReset ? { code, password } : { code, name: form.name.trim(), password };
    void form.send(() => staffApi.redeemInvitation(body));
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
      <PasswordForm form={form} submitLabel={words.t('invitation.submit')} onSubmit={submit} />
    </main>
  );
}
