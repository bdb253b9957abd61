import { useState } from 'react';
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

/** A link that cannot be used here (expired, used, or of another kind), under the page's own heading. */
export function UnusableLink({ title, message }: { title: string; message: string }) {
  return (
    <main className="card narrow">
      <h1>{title}</h1>
      <ErrorMessage text={message} />
    </main>
  );
}
