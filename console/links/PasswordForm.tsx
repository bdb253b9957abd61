import { type FormEvent, type ReactNode, useState } from 'react';
import type { HttpOutcome } from '../../shared/src/client/http';
import type { StaffUserAnswer } from '../../shared/src/client/staff';
import { ErrorMessage } from '../components/ErrorMessage';
import { Field } from '../components/Field';
import { useAction } from '../components/useAction';
import { useWords } from '../language/ConsoleLanguage';
import { refusedFields, useFieldErrors } from './linkForm';
import { passwordProblem } from './useLink';

/** A page's own fields besides name and password (setup's email): their names and what is wrong with them. */
export interface OwnFields {
  names: string[];
  problems: Record<string, string>;
}

/**
 * The form of a link that signs someone in (setup, invitation, reset): the name (when `askName`) and new
 * password it always holds, its field errors, and the one write that ends in `onSignedIn`.
 */
export function usePasswordForm({
  askName,
  onSignedIn,
}: {
  askName: boolean;
  onSignedIn: (user: StaffUserAnswer) => void;
}) {
  const words = useWords();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const { errors, setErrors, edit } = useFieldErrors();
  const action = useAction();

  const send = async (
    request: () => Promise<HttpOutcome<{ user: StaffUserAnswer }>>,
    own: OwnFields = { names: [], problems: {} },
  ) => {
    const found = { ...own.problems };
    if (askName && name.trim() === '') found.name = words.t('link.noName');
    const weak = passwordProblem(words, password);
    if (weak) found.password = weak;
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    let refused: Record<string, string> = {};
    const answer = await action.run(async () => {
      const outcome = await request();
      refused = refusedFields(outcome);
      return outcome;
    });
    // The server's reason for a field (a password too easy to guess) is shown at that field, in its words.
    const fields = ['name', ...own.names, 'password'];
    const onFields = Object.fromEntries(Object.entries(refused).filter(([path]) => fields.includes(path)));
    if (Object.keys(onFields).length > 0) {
      setErrors(onFields);
      action.setError(null);
    }
    if (answer) onSignedIn(answer.user);
  };

  return { askName, name, setName, password, setPassword, errors, edit, send, busy: action.busy, error: action.error };
}

export type PasswordFormState = ReturnType<typeof usePasswordForm>;

/** The form itself: the name (when asked), the page's own fields, the new password and its rules, the button. */
export function PasswordForm({
  form,
  submitLabel,
  onSubmit,
  children,
}: {
  form: PasswordFormState;
  submitLabel: string;
  onSubmit: () => void;
  children?: ReactNode;
}) {
  const words = useWords();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <form onSubmit={submit} noValidate>
      {form.askName ? (
        <Field
          label={words.t('link.name')}
          autoComplete="name"
          value={form.name}
          onChange={form.edit('name', form.setName)}
          error={form.errors.name}
        />
      ) : null}
      {children}
      <Field
        label={words.t('link.password')}
        type="password"
        autoComplete="new-password"
        value={form.password}
        onChange={form.edit('password', form.setPassword)}
        error={form.errors.password}
      />
      <p className="hint">{words.t('password.hint')}</p>
      <ErrorMessage text={form.error} />
      <button className="primary" type="submit" disabled={form.busy}>
        {submitLabel}
      </button>
    </form>
  );
}
