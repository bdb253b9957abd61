import { describe, expect, it } from 'vitest';
import { badgePages, badgeQrText, badgeSizes, parseBadgeQr } from '../../shared/src/domain/badge';
import type { Problem } from '../../shared/src/schemas/common';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import type { Site } from '../../shared/src/schemas/sites';
import { buildToken, visitor } from '../support/factories';
import { readPdf } from '../support/pdfReadback';
import { serverAndWorld } from '../support/serverAndWorld';
import { staffClient } from '../support/staff';

const harness = serverAndWorld({ env: { SIGNIN_FAILURES_PER_ADDRESS: '1000' }, worldPerTest: true });
const people = (siteId: number) => `/v1/sites/${siteId}/checkins/people`;
const badgePath = (checkin: { siteId: number; checkinId: number }) =>
  `${people(checkin.siteId)}/${checkin.checkinId}/badge.pdf`;

/** The badge as bytes, with the token given (the world's by default). */
async function fetchBadge(checkin: { siteId: number; checkinId: number }, token = harness.world.token) {
  const response = await fetch(`${harness.server.baseUrl}${badgePath(checkin)}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
}

async function badgesOn(siteId: number, size: (typeof badgeSizes)[number] = '62x100') {
  const answer = await harness.world.api.patch<Site>(`/v1/sites/${siteId}`, { badge: { enabled: true, size } });
  expect(answer.status).toBe(200);
  return answer.body;
}

const checkIn = async (body: unknown, siteId = harness.world.siteId) =>
  (await harness.world.api.post<PersonCheckin>(people(siteId), body)).body;

describe('badge settings of a site', () => {
  it('are off on a new site; a manager turns them on and picks a size; the list and the site show them', async () => {
    const { world, server } = harness;
    const site = await world.api.get<Site>(`/v1/sites/${world.siteId}`);
    expect(site.body.badge).toEqual({ enabled: false, size: '62x100' });
    const manager = (
      await staffClient(server, { accountId: world.accountId, role: 'manager', siteIds: [world.siteId] })
    ).api;
    const on = await manager.patch<Site>(`/v1/sites/${world.siteId}`, { badge: { enabled: true, size: '89x36' } });
    expect(on.status).toBe(200);
    expect(on.body.badge).toEqual({ enabled: true, size: '89x36' });
    // Only what is sent changes: the size stays when badges go off, the name when the badge changes.
    const off = await manager.patch<Site>(`/v1/sites/${world.siteId}`, { badge: { enabled: false } });
    expect(off.body).toMatchObject({ name: site.body.name, badge: { enabled: false, size: '89x36' } });
    const listed = await world.api.get<{ data: Site[] }>('/v1/sites');
    expect(listed.body.data.find((item) => item.siteId === world.siteId)?.badge).toEqual(off.body.badge);
    expect(listed.body.data.find((item) => item.siteId === world.otherSiteId)?.badge.enabled).toBe(false);
  });

  it('refuses a size it does not know, an unknown badge field, and a role that may not configure sites', async () => {
    const { world, server } = harness;
    const wrongSize = await world.api.patch<Problem>(`/v1/sites/${world.siteId}`, { badge: { size: '100x100' } });
    expect(wrongSize.status).toBe(422);
    expect(wrongSize.body.errors?.[0]?.path).toBe('badge.size');
    expect((await world.api.patch(`/v1/sites/${world.siteId}`, { badge: { color: 'red' } })).status).toBe(422);
    const reception = (
      await staffClient(server, { accountId: world.accountId, role: 'reception', siteIds: [world.siteId] })
    ).api;
    expect((await reception.patch(`/v1/sites/${world.siteId}`, { badge: { enabled: true } })).status).toBe(403);
  });
});

describe('GET …/badge.pdf', () => {
  it('is a one-page PDF of exactly each label size whose QR code names the visit and its badge code', async () => {
    const { world } = harness;
    const checkin = await checkIn({
      person: { firstName: 'Ada', lastName: 'Lovelace', company: 'Analytical Engines' },
      hostName: 'Grace Hopper',
    });
    expect(checkin.badgeCode).toMatch(/^[A-Za-z0-9_-]{16}$/);
    for (const size of badgeSizes) {
      await badgesOn(world.siteId, size);
      const badge = await fetchBadge(checkin);
      expect(badge.status, size).toBe(200);
      expect(badge.headers.get('content-type')).toBe('application/pdf');
      expect(badge.headers.get('cache-control')).toBe('no-store');
      const pdf = readPdf(badge.body);
      expect(pdf.pages).toBe(1);
      expect(Math.abs(pdf.pageMm.width - badgePages[size].widthMm), size).toBeLessThan(1);
      expect(Math.abs(pdf.pageMm.height - badgePages[size].heightMm), size).toBeLessThan(1);
      for (const words of ['VISITOR', 'Ada Lovelace', 'Analytical Engines', 'Host: Grace Hopper', 'Valid until'])
        expect(pdf.text.replace(/\s+/g, ' '), `${size}: ${words}`).toContain(words);
      expect(pdf.qr, size).toBe(
        badgeQrText({ siteId: world.siteId, checkinId: checkin.checkinId, code: checkin.badgeCode ?? '' }),
      );
      expect(parseBadgeQr(pdf.qr ?? '')).toEqual({
        siteId: world.siteId,
        checkinId: checkin.checkinId,
        code: checkin.badgeCode,
      });
    }
  });

  it('writes names in Latin, Chinese, Japanese, Arabic and Hebrew with fonts embedded in the PDF', async () => {
    const { world } = harness;
    await badgesOn(world.siteId);
    const names: Array<[string, string]> = [
      ['Zoë', 'Ångström'],
      ['小明', '王'],
      ['さくら', '田中'],
      ['محمد', 'الأحمد'],
      ['דוד', 'כהן'],
    ];
    for (const [firstName, lastName] of names) {
      const checkin = await checkIn(visitor(firstName, lastName));
      const badge = await fetchBadge(checkin);
      expect(badge.status).toBe(200);
      const pdf = readPdf(badge.body);
      // pdftotext gives a right-to-left line in reading order, as a person reads it.
      expect(pdf.text, `${firstName} ${lastName}`).toContain(`${firstName} ${lastName}`);
      expect(pdf.fonts.length).toBeGreaterThan(0);
      for (const font of pdf.fonts) expect(font.embedded, font.name).toBe(true);
      // No standard PDF font (Helvetica…): those are the viewer's, not the badge's own.
      expect(
        pdf.fonts.every((font) => /^[A-Z]{6}\+Noto/.test(font.name)),
        JSON.stringify(pdf.fonts),
      ).toBe(true);
    }
  });

  it("speaks the visitor's language, else the site's default language", async () => {
    const { world } = harness;
    await badgesOn(world.siteId);
    const grace = { person: { firstName: 'Ada', lastName: 'Lovelace' }, hostName: 'Grace Hopper' };
    const textOf = async (body: unknown) =>
      readPdf((await fetchBadge(await checkIn(body))).body).text.replace(/\s+/g, ' ');
    const german = await textOf({ ...grace, language: 'de' });
    for (const words of ['BESUCHER', 'Ansprechperson: Grace Hopper', 'Gültig bis']) expect(german).toContain(words);
    expect(german).not.toContain('VISITOR');
    // Words pdftotext reads back letter for letter (it gives some shaped Arabic letters as their dotless base).
    const arabic = await textOf({ ...grace, language: 'ar' });
    for (const words of ['المضيف', 'صالحة حتى']) expect(arabic).toContain(words);
    // Without a language of its own, the check-in's badge is in the site's default.
    expect((await world.api.patch(`/v1/sites/${world.siteId}`, { defaultLanguage: 'fr' })).status).toBe(200);
    const french = await textOf(grace);
    for (const words of ['VISITEUR', 'Personne visitée', 'Valable jusqu']) expect(french).toContain(words);
  });

  it('gives no badge to a STOP visitor, a PENDING one until approved, or one who left; none while badges are off', async () => {
    const { world } = harness;
    const first = await checkIn(visitor('Off', 'Day'));
    const off = await fetchBadge(first);
    expect(off.status).toBe(409);
    expect((JSON.parse(off.body.toString('utf8')) as Problem).code).toBe('BADGES_OFF');
    await badgesOn(world.siteId);

    await world.api.post('/v1/watchlist/people', { firstName: 'Mallory', lastName: 'Stop', reason: 'Banned' });
    const stopped = await checkIn(visitor('Mallory', 'Stop'));
    expect(stopped.status).toBe('STOP');
    const refused = await fetchBadge(stopped);
    expect(refused.status).toBe(409);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const problem = JSON.parse(refused.body.toString('utf8')) as Problem & { current: PersonCheckin };
    expect(problem.code).toBe('CHECKIN_NOT_ADMITTED');
    expect(problem.detail).toContain('no badge');
    expect(problem.current.status).toBe('STOP');

    const config = (await world.api.get<{ fields: unknown[] }>(`${people(world.siteId)}/config`)).body;
    await world.api.put(`${people(world.siteId)}/config`, { requiresApproval: true, fields: config.fields });
    const waiting = await checkIn(visitor('Penny', 'Pending'));
    expect(waiting.status).toBe('PENDING');
    const pending = await fetchBadge(waiting);
    expect(pending.status).toBe(409);
    expect((JSON.parse(pending.body.toString('utf8')) as Problem).detail).toContain('once approved');
    await world.api.post(`${people(world.siteId)}/${waiting.checkinId}/approve`, {});
    expect((await fetchBadge(waiting)).status).toBe(200);

    await world.api.patch(`${people(world.siteId)}/${waiting.checkinId}`, {});
    const left = await fetchBadge(waiting);
    expect(left.status).toBe(409);
    expect((JSON.parse(left.body.toString('utf8')) as Problem).code).toBe('CHECKIN_CLOSED');
  });

  it('needs checkins:read; a kiosk of the site may read its badges', async () => {
    const { world, server } = harness;
    await badgesOn(world.siteId);
    const checkin = await checkIn(visitor());
    const writer = await buildToken(server, { accountId: world.accountId, scopes: ['checkins:write'] });
    const forbidden = await fetchBadge(checkin, writer.token);
    expect(forbidden.status).toBe(403);
    const kiosk = await buildToken(server, {
      accountId: world.accountId,
      siteIds: [world.siteId],
      channel: 'KIOSK',
      mode: 'visitor',
    });
    expect((await fetchBadge(checkin, kiosk.token)).status).toBe(200);
    expect((await fetchBadge({ siteId: world.siteId, checkinId: checkin.checkinId + 1000 })).status).toBe(404);
  });
});
