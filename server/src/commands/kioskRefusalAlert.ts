import type { Principal } from '../auth/principal';
import { type Executor, queryRows } from '../db/query';
import { sql } from '../db/sql';
import { siteVisibleSql } from '../policies/siteVisibility';

/** The longest reason kept: a refusal listing many fields is cut, not refused. */
const REASON_MAX = 1_000;

/** What a refused request said, as the alert's reason reads it. */
export interface Refusal {
  /** The action in words ("Check-in", "Vehicle exit"). */
  action: string;
  detail: string;
  errors?: ReadonlyArray<{ message: string }>;
}

/** "Check-in refused: The check-in does not meet the site configuration. (Company is required)" */
export function refusalReason(refusal: Refusal): string {
  const messages = (refusal.errors ?? []).map((error) => error.message);
  const reason = `${refusal.action} refused: ${refusal.detail}${messages.length > 0 ? ` (${messages.join('; ')})` : ''}`;
  return reason.length > REASON_MAX ? `${reason.slice(0, REASON_MAX - 1)}…` : reason;
}

/**
 * Raises the alert of a check-in action the server refused to a kiosk (docs/api.md, Alerts): on the site
 * of the request when the kiosk's token may view it, else on the kiosk's own site; named by the kiosk's
 * name (its token's, for a KIOSK token made without the Kiosks page). One statement, committed on its own,
 * since the refused request commits nothing; once per Idempotency-Key, so retries of one refused request
 * raise one alert. A caller that is no kiosk token raises nothing.
 */
export async function raiseKioskRefusal(
  db: Executor,
  input: { principal: Principal; siteId: number | undefined; refusal: Refusal; key: string | undefined; now: Date },
): Promise<void> {
  const { principal } = input;
  if (principal.source !== 'KIOSK' || principal.tokenId === null) return;
  await queryRows(
    db,
    sql`INSERT INTO raised_alerts (account_id, site_id, kind, at, token_id, kiosk_name, reason, idempotency_key)
        SELECT t.account_id, COALESCE(s.id, k.site_id), 'kiosk', ${input.now}::timestamptz, t.id, COALESCE(k.name, t.name),
               ${refusalReason(input.refusal)}, ${input.key ?? null}::text
        FROM api_tokens t
        LEFT JOIN kiosks k ON k.account_id = t.account_id AND k.token_id = t.id
        LEFT JOIN sites s ON s.account_id = t.account_id AND s.id = ${input.siteId ?? null}::integer
          AND ${siteVisibleSql(principal, sql`s.id`)}
        WHERE t.account_id = ${principal.accountId} AND t.id = ${principal.tokenId} AND COALESCE(s.id, k.site_id) IS NOT NULL
        ON CONFLICT (account_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING`,
  );
}
