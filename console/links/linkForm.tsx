import { useState } from 'react';
import type { HttpOutcome } from '../../shared/src/client/http';
import { ErrorMessage } from '../components/ErrorMessage';

/** A link page's field errors: a field's error goes once it is edited; the rest stay until the next press. */
export function useFieldErrors() {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const edit = (field: string, set: (value: string) => void) => (value: string) => {
    set(value);
    setErrors(({ [field]: _gone, ...rest }) => rest);
  };
  return { errors, setErrors, edit };
}

/**
 * The server's own words for the fields it refused (a 422's `errors`, such as why a password is too easy
 * to guess), by field name; empty when it named none.
 */
export function refusedFields(outcome: HttpOutcome<unknown>): Record<string, string> {
  if (outcome.kind !== 'refused' || outcome.status !== 422) return {};
  return Object.fromEntries((outcome.problem?.errors ?? []).map((error) => [error.path, error.message]));
}

/** A link that cannot be used here (expired, used, or of another kind), under the page's own heading. */
export function UnusableLink({ title, message }: { title: string; message: string }) {
  return (
    <main className="card narrow">
      <h1>{title}</h1>
      <ErrorMessage text={message} />
    </main>
  );
}
