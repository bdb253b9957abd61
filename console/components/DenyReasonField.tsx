import { Field } from './Field';

/** A deny's reason is optional and at most 500 characters (DenyRequest, and a host's Deny link likewise). */
const reasonLength = 500;

/** The reason to send with a deny: none when only blanks were typed. */
export const denyReason = (typed: string): { reason?: string } => (typed.trim() === '' ? {} : { reason: typed.trim() });

/** Why a visit is denied, optional; the words come from the page (the console's, or a host's language). */
export function DenyReasonField({
  label,
  optional,
  value,
  onChange,
}: {
  label: string;
  optional: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return <Field label={label} value={value} onChange={onChange} maxLength={reasonLength} placeholder={optional} />;
}
