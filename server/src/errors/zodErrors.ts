import type { z } from 'zod';
import type { FieldError } from './problem';

/** zod's wording where plainer words exist: a missing value, a missing body. */
function plainMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type' && issue.message.endsWith('received undefined')) {
    return issue.path.length === 0 ? 'The body must be a JSON object' : 'Required';
  }
  return issue.message;
}

/** zod issues as the `errors` list of a 422: `person.email`, `labelIds.0`, … */
export function fieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.flatMap((issue) => {
    const at = issue.path.map(String);
    // One error per unknown field, at that field's own path, so an integrator sees which one to drop.
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ path: [...at, key].join('.'), message: 'Unknown field' }));
    }
    return [{ path: at.join('.'), message: plainMessage(issue) }];
  });
}

/**
 * The first problem of a query string, in its own words: a query holds parameters, not fields, and a
 * comma-separated value (`status=IN,LEFT`) is one parameter, whatever item of it is wrong.
 */
export function queryProblem(error: z.ZodError): string | undefined {
  const issue = error.issues[0];
  if (!issue) return undefined;
  if (issue.code === 'unrecognized_keys') return `Unknown query parameter ${issue.keys.join(', ')}`;
  const name = issue.path[0] === undefined ? '?' : String(issue.path[0]);
  return `Query parameter ${name}: ${plainMessage(issue)}`;
}
