import { expect } from 'vitest';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import type { CheckinConfig } from '../../shared/src/schemas/sites';
import type { ReceivedEvent } from './eventStream';
import type { ApiClient } from './http';
import { invite, passOf } from './invitations';

/**
 * The alerts that are not a STOP (docs/api.md, Alerts), each raised through the API as it happens at a site:
 * a pass used twice, a check-in on an older form, a kiosk refusing someone. Each answers the number that
 * names the alert in `GET /v1/alerts` (and in its `alert` event), with its kind.
 */

const people = (siteId: number) => `/v1/sites/${siteId}/checkins/people`;

/** A pass used a second time: the visit is held `PENDING` and reception gets a `pass` alert. */
export async function holdPass(api: ApiClient, siteId: number): Promise<{ kind: 'pass'; checkinId: number }> {
  const { token } = await passOf(api, (await invite(api, siteId)).invitationId);
  const first = await api.post<PersonCheckin>(people(siteId), { person: {}, pass: token });
  expect(first.status, first.text).toBe(201);
  const second = await api.post<PersonCheckin>(people(siteId), { person: {}, pass: token });
  expect(second.status, second.text).toBe(201);
  expect(second.body.status).toBe('PENDING');
  return { kind: 'pass', checkinId: second.body.checkinId };
}

/**
 * The site's form starts asking for a visitor reference, a visitor who filled in the form before it is
 * checked in without one (a `form` alert), and the form goes back to what it was (so a later visit, a pass's
 * or a kiosk's, meets it as before).
 */
export async function checkInOnOlderForm(api: ApiClient, siteId: number): Promise<{ kind: 'form'; checkinId: number }> {
  const config = `${people(siteId)}/config`;
  const before = await api.get<CheckinConfig>(config);
  expect(before.status, before.text).toBe(200);
  const { requiresApproval, fields } = before.body;
  const reference = { name: 'visitorRef', label: 'Visitor reference', type: 'text', required: true } as const;
  const put = await api.put(config, { requiresApproval, fields: [...fields, reference] });
  expect(put.status, put.text).toBe(200);
  const created = await api.post<PersonCheckin>(people(siteId), {
    person: { firstName: 'Olga', lastName: 'Olderform' },
    formVersion: before.body.version,
  });
  expect(created.status, created.text).toBe(201);
  expect(created.body.incompleteFields).toEqual([reference.name]);
  const restored = await api.put(config, { requiresApproval, fields });
  expect(restored.status, restored.text).toBe(200);
  return { kind: 'form', checkinId: created.body.checkinId };
}

/**
 * A kiosk of the site is refused a checkout of a visit that does not exist (a `404`): a `kiosk` alert. Its
 * number is the alert's own, read back as `reader` (one who may read the site's alerts) lists it.
 */
export async function refuseAtKiosk(
  kiosk: ApiClient,
  siteId: number,
  reader: ApiClient,
  idempotencyKey: string,
): Promise<{ kind: 'kiosk'; checkinId: number }> {
  const known = new Set((await kioskAlertIds(reader, siteId)).values());
  const refused = await kiosk.post(`${people(siteId)}/999999999/checkout`, {}, { idempotencyKey });
  expect(refused.status, refused.text).toBe(404);
  const added = (await kioskAlertIds(reader, siteId)).filter((id) => !known.has(id));
  expect(added).toHaveLength(1);
  return { kind: 'kiosk', checkinId: added[0] ?? 0 };
}

async function kioskAlertIds(reader: ApiClient, siteId: number): Promise<number[]> {
  const listed = await reader.get<{ data: Array<{ kind: string; checkinId: number }> }>(
    `/v1/alerts?siteIds=${siteId}&limit=200`,
  );
  expect(listed.status, listed.text).toBe(200);
  return listed.body.data.filter((alert) => alert.kind === 'kiosk').map((alert) => alert.checkinId);
}

/** The `alert` event of one alert, as GET /v1/alerts names it. */
export const alertEvent = (alert: { kind: string; checkinId: number }) => (event: ReceivedEvent) =>
  event.event === 'alert' && event.data.kind === alert.kind && event.data.checkinId === alert.checkinId;
