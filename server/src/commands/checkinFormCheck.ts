import { type IncompleteField, checkOlderForm, validateCheckinForm } from '../../../shared/src/domain';
import type { CreateCheckinRequest } from '../../../shared/src/schemas/personCheckins';
import type { SiteAccess } from '../auth/principal';
import type { Executor } from '../db/query';
import { validationFailed } from '../errors/problem';
import { findFormVersion } from '../queries/formVersions';

const NOT_MET = 'The check-in does not meet the site configuration.';

/**
 * Checks a create against the site's form (docs/api.md, Form versions). Without `formVersion`, or naming the
 * current version, every field of the current form must be met (422 otherwise). Naming an older version, the
 * body must meet that version; the current form's fields it does not meet are returned, to be kept on the
 * check-in and raised as an alert. A version the site never had is a 422 on `formVersion`.
 */
export async function checkCheckinForm(
  db: Executor,
  input: { accountId: number; site: SiteAccess; request: CreateCheckinRequest },
): Promise<IncompleteField[]> {
  const { site, request } = input;
  const current = site.checkinConfig.fields;
  const named = request.formVersion;
  if (named === undefined || named === site.configVersion) {
    const errors = validateCheckinForm(current, request);
    if (errors.length > 0) throw validationFailed(errors, NOT_MET);
    return [];
  }
  const older = await findFormVersion(db, { accountId: input.accountId, siteId: site.siteId, version: named });
  if (!older) {
    throw validationFailed(
      [
        {
          path: 'formVersion',
          message: `Site ${site.siteId} has no form version ${named} (its form is at version ${site.configVersion})`,
        },
      ],
      'The check-in names a version of the form that this site does not have.',
    );
  }
  const verdict = checkOlderForm(older.fields, current, request);
  if (!verdict.ok)
    throw validationFailed(verdict.errors, `The check-in does not meet version ${named} of the site configuration.`);
  return verdict.incomplete;
}
