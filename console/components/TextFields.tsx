import type { HTMLInputTypeAttribute } from 'react';
import { Field } from './Field';

/** One text input of a form: the value it edits, its label, and which of the server's errors it shows. */
export interface TextFieldSpec<K extends string> {
  name: K;
  label: string;
  type?: HTMLInputTypeAttribute;
  placeholder?: string;
  /** The first segment of the request's path its 422 errors come under, when not `name` (`expectedAt`). */
  errorOf?: string;
}

/**
 * A dialog form's text inputs, in order, each bound to its value by name and showing the server's error for
 * it (useWrite's `fieldErrors`): the one way the console's dialogs build their fields.
 */
export function TextFields<K extends string>({
  fields,
  values,
  onChange,
  errors,
}: {
  fields: ReadonlyArray<TextFieldSpec<K>>;
  // The field names alone say which values these are: the form's other values may be anything.
  values: NoInfer<Readonly<Record<K, string>>>;
  onChange: NoInfer<(name: K, value: string) => void>;
  errors: Readonly<Record<string, string>>;
}) {
  return (
    <>
      {fields.map(({ name, errorOf, ...input }) => (
        <Field
          key={name}
          {...input}
          value={values[name]}
          onChange={(value) => onChange(name, value)}
          error={errors[errorOf ?? name]}
        />
      ))}
    </>
  );
}
