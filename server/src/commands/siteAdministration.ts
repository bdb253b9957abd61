import type {
  BadgeSettings,
  CheckinConfigUpdate,
  UpdateSiteRequest,
  VisitSettings,
} from '../../../shared/src/schemas/sites';
import { type BadgeSize, defaultBadgeSettings } from '../../../shared/src/domain/badge';
import { DEFAULT_LANGUAGE, type Language } from '../../../shared/src/messages/languages';
import type { Principal, SiteAccess } from '../auth/principal';
import { type Executor, queryOne } from '../db/query';
import { sql } from '../db/sql';
import { ProblemError, notFound } from '../errors/problem';
import { configEtag, presentConfig } from '../presenters/site';
import { requireEverySite } from '../policies/everySite';
import { createSite } from './provisioning';
import { replaceCheckinConfig } from './siteConfigWriter';

export interface SiteRecord {
  siteId: number;
  name: string;
  timezone: string;
  archivedAt: Date | null;
  badge: BadgeSettings;
  defaultLanguage: Language;
  visit: VisitSettings;
}

/** A new site of the caller's account, with the default form; only a caller with every site may add one. */
export async function createAccountSite(
  db: Executor,
  input: { principal: Principal; name: string; timezone?: string; defaultLanguage?: Language },
): Promise<SiteRecord> {
  requireEverySite(input.principal, 'Adding a site');
  const site = await createSite(db, {
    accountId: input.principal.accountId,
    name: input.name,
    timezone: input.timezone,
    defaultLanguage: input.defaultLanguage,
  });
  return {
    siteId: site.siteId,
    name: site.name,
    timezone: site.timezone,
    archivedAt: null,
    badge: defaultBadgeSettings,
    defaultLanguage: input.defaultLanguage ?? DEFAULT_LANGUAGE,
    visit: { code: site.visitCode, requiresApproval: false },
  };
}

interface SiteRecordRow {
  id: number;
  name: string;
  timezone: string;
  archived_at: Date | null;
  badge_enabled: boolean;
  badge_size: BadgeSize;
  visit_code: string;
  visit_requires_approval: boolean;
  default_language: Language;
}

const SITE_RECORD_COLUMNS = sql`id, name, timezone, archived_at, badge_enabled, badge_size, visit_code, visit_requires_approval,
  default_language`;

const siteRecordOf = (row: SiteRecordRow): SiteRecord => ({
  siteId: row.id,
  name: row.name,
  timezone: row.timezone,
  archivedAt: row.archived_at,
  badge: { enabled: row.badge_enabled, size: row.badge_size },
  visit: { code: row.visit_code, requiresApproval: row.visit_requires_approval },
  defaultLanguage: row.default_language,
});

/**
 * Renames, moves the time zone of, archives or restores a site, or changes its badges, its default language
 * or whether its QR check-ins need approval; archiving again keeps the first time.
 */
export async function updateSite(
  db: Executor,
  input: { accountId: number; siteId: number; change: UpdateSiteRequest; now: Date },
): Promise<SiteRecord> {
  const { change } = input;
  const archivedAt =
    change.archived === undefined
      ? sql`archived_at`
      : change.archived
        ? sql`COALESCE(archived_at, ${input.now})`
        : sql`NULL`;
  const row = await queryOne<SiteRecordRow>(
    db,
    sql`UPDATE sites SET name = COALESCE(${change.name ?? null}::text, name), timezone = COALESCE(${change.timezone ?? null}::text, timezone),
          archived_at = ${archivedAt}, updated_at = ${input.now},
          badge_enabled = COALESCE(${change.badge?.enabled ?? null}::boolean, badge_enabled),
          badge_size = COALESCE(${change.badge?.size ?? null}::text, badge_size),
          visit_requires_approval = COALESCE(${change.visit?.requiresApproval ?? null}::boolean, visit_requires_approval),
          default_language = COALESCE(${change.defaultLanguage ?? null}::text, default_language)
        WHERE account_id = ${input.accountId} AND id = ${input.siteId}
        RETURNING ${SITE_RECORD_COLUMNS}`,
  );
  if (!row) throw notFound(`Site ${input.siteId} does not exist.`);
  return siteRecordOf(row);
}

/**
 * A new visit code for the site (made by the database, as every site's first one): the old code and its
 * poster stop working at once, and so do the phones of visits begun under it (docs/running-a-site.md).
 */
export async function rotateVisitCode(
  db: Executor,
  input: { accountId: number; siteId: number; now: Date },
): Promise<SiteRecord> {
  const row = await queryOne<SiteRecordRow>(
    db,
    sql`UPDATE sites SET visit_code = gatehouse_visit_code(), updated_at = ${input.now}
        WHERE account_id = ${input.accountId} AND id = ${input.siteId}
        RETURNING ${SITE_RECORD_COLUMNS}`,
  );
  if (!row) throw notFound(`Site ${input.siteId} does not exist.`);
  return siteRecordOf(row);
}

/**
 * Replaces the form only if it is still the version `ifMatch` names (when given): else 412 with the current
 * form and its ETag, so an editor never overwrites a change it has not seen. The row is locked first.
 */
export async function replaceConfigIfMatch(
  db: Executor,
  input: { accountId: number; site: SiteAccess; config: CheckinConfigUpdate; ifMatch: string | undefined; now: Date },
): Promise<SiteAccess> {
  const { site } = input;
  const row = await queryOne<{ config_version: number; checkin_config: CheckinConfigUpdate }>(
    db,
    sql`SELECT config_version, checkin_config FROM sites WHERE account_id = ${input.accountId} AND id = ${site.siteId} FOR UPDATE`,
  );
  if (!row) throw notFound(`Site ${site.siteId} does not exist.`);
  const current: SiteAccess = { ...site, checkinConfig: row.checkin_config, configVersion: row.config_version };
  const etag = configEtag(current);
  if (input.ifMatch !== undefined && !matchesEtag(input.ifMatch, etag)) {
    throw new ProblemError(
      'PRECONDITION_FAILED',
      'The form was changed since it was read: reload it, and make the change again.',
      {
        current: presentConfig(current),
        headers: { ETag: etag },
      },
    );
  }
  return replaceCheckinConfig(db, { accountId: input.accountId, site: current, config: input.config, now: input.now });
}

/** If-Match holds when it lists this ETag (strong comparison) or is `*`. */
const matchesEtag = (header: string, etag: string) =>
  header.split(',').some((candidate) => {
    const value = candidate.trim();
    return value === '*' || value === etag;
  });
