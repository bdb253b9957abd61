import type { z } from 'zod';
import type { FieldError } from './problem';

/** zod issues as the `errors` list of a 422: `person.email`, `labelIds.0`, … */
export function fieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.flatMap((issue) => {
    const at = issue.path.map(String);
    // One error per unknown field, at that field's own path, so an integrator sees which one to drop.
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ path: [...at, key].join('.'), message: 'Unknown field' }));
    }
    return [{ path: at.join('.'), message: issue.message }];
  });
}
