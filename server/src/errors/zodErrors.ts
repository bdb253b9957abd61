import type { z } from 'zod';
import type { FieldError } from './problem';

/** zod issues as the `errors` list of a 422: `person.email`, `labelIds.0`, … */
export function fieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.code === 'unrecognized_keys' ? `Unknown field(s): ${issue.keys.join(', ')}` : issue.message,
  }));
}
