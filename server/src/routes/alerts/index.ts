import { z } from 'zod';
import { Alert, AlertKind, AlertPage, AlertQuery } from '../../../../shared/src/schemas/alerts';
import { Id } from '../../../../shared/src/schemas/common';
import { acknowledgeAlert } from '../../commands/alertAcknowledger';
import { viewableSites } from '../../policies/viewableSites';
import { listAlerts } from '../../queries/alerts';
import { defineRoute } from '../define';
import { alertExample, userActorExample } from '../staffExamples';

const tag = 'Alerts';
const AlertParams = z.strictObject({ kind: AlertKind, checkinId: Id });

export const alertRoutes = [
  defineRoute({
    method: 'GET',
    path: '/alerts',
    summary:
      'The alerts of the last 24 hours on the caller’s sites (stops, check-ins on an older form, kiosk refusals, passes not honoured), newest first',
    description:
      'Every alert of the last 24 hours on the caller\'s sites, newest first, and how many nobody has acknowledged. `kind` `person` or `vehicle`: a STOP, with why (`source`: watchlist, label, denied) and the reason (the watchlist entry\'s is shown only here). `form` (`source` olderForm): a person checked in on an older version of the form, `reason` naming what the current form asks that they did not give ("Checked in with an older form: Company missing"). `kiosk` (`source` kioskRefused): an action the server refused to a kiosk, `subject` the kiosk\'s name, `reason` the action and why (no replay, no 409, no 401 or 429; once per Idempotency-Key). `pass` (`source` pass): a check-in with a pass that was not honoured (used already, cancelled, outside its validity) and so waits as `PENDING`, `reason` saying why ("Pass already used at 09:12").',
    examples: { response: { data: [alertExample], nextCursor: null, unacknowledged: 1 }, query: { siteIds: '1,2' } },
    tag,
    auth: 'token',
    scope: 'alerts:manage',
    query: AlertQuery,
    responses: { 200: AlertPage },
    handler: async ({ db, principal, query, now }) => ({
      status: 200,
      body: await listAlerts(db, {
        accountId: principal.accountId,
        siteIds: await viewableSites(db, principal, query.siteIds),
        now,
        limit: query.limit,
        cursor: query.cursor,
      }),
    }),
  }),
  defineRoute({
    method: 'POST',
    path: '/alerts/:kind/:checkinId/acknowledge',
    summary: 'Acknowledge an alert (again: no change); recorded with who and when',
    description:
      "Records who acknowledged the alert and when; acknowledging again changes nothing. `kind` and `checkinId` name the alert as the list shows it (for `kiosk` the number is the alert's own). An alert not on the caller's sites is a 404.",
    examples: {
      response: { ...alertExample, acknowledgedAt: '2026-11-21T09:05:00.000Z', acknowledgedBy: userActorExample },
    },
    tag,
    auth: 'token',
    scope: 'alerts:manage',
    params: AlertParams,
    responses: { 200: Alert },
    handler: async ({ db, principal, params, now, requestId }) => ({
      status: 200,
      body: await acknowledgeAlert(db, { principal, kind: params.kind, checkinId: params.checkinId, now, requestId }),
    }),
  }),
];
