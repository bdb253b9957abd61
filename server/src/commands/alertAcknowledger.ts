import type { Alert, AlertKind } from '../../../shared/src/schemas/alerts';
import { writeAudit } from '../audit/record';
import type { Principal } from '../auth/principal';
import { type Executor, queryOne } from '../db/query';
import { sql } from '../db/sql';
import { notFound } from '../errors/problem';
import { publishEvent } from '../live/publish';
import { viewableSites } from '../policies/viewableSites';
import { findAlert, presentAlert } from '../queries/alerts';

/** What the audit log names as acknowledged: the check-in, or a kiosk refusal's own alert. */
const targetTypes: Record<AlertKind, string> = {
  person: 'person_checkin',
  vehicle: 'vehicle_checkin',
  form: 'person_checkin',
  kiosk: 'alert',
  pass: 'person_checkin',
};

/**
 * Acknowledges an alert: who and when, kept from the first time (acknowledging again changes
 * nothing), and audited with it in the same transaction. An alert not on the caller's sites is a 404.
 */
export async function acknowledgeAlert(
  db: Executor,
  input: { principal: Principal; kind: AlertKind; checkinId: number; now: Date; requestId: string },
): Promise<Alert> {
  const { principal } = input;
  const siteIds = await viewableSites(db, principal);
  const key = { accountId: principal.accountId, siteIds, kind: input.kind, checkinId: input.checkinId };
  const found = await findAlert(db, key);
  if (!found) throw notFound(`There is no ${input.kind} alert ${input.checkinId}.`);
  const inserted = await queryOne<{ at: Date }>(
    db,
    sql`INSERT INTO alert_acknowledgements (account_id, kind, checkin_id, at, actor)
        VALUES (${principal.accountId}, ${input.kind}, ${input.checkinId}, ${input.now}, ${JSON.stringify(principal.actor)}::jsonb)
        ON CONFLICT DO NOTHING RETURNING at`,
  );
  if (inserted) {
    await writeAudit(db, {
      accountId: principal.accountId,
      actor: principal.actor,
      at: input.now,
      requestId: input.requestId,
      action: 'alert.acknowledged',
      target: { type: targetTypes[input.kind], id: input.checkinId },
      siteId: found.site_id,
    });
    // The consoles following the site take the alert off their list (docs/api.md, Event stream).
    await publishEvent(db, {
      accountId: principal.accountId,
      siteId: found.site_id,
      type: 'alert',
      data: { kind: input.kind, siteId: found.site_id, checkinId: input.checkinId },
    });
  }
  const after = await findAlert(db, key);
  if (!after) throw notFound(`There is no ${input.kind} alert ${input.checkinId}.`);
  return presentAlert(after);
}
