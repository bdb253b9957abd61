import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildWorld, visitor } from '../support/factories';
import { apiClient } from '../support/http';
import { readPdf } from '../support/pdfReadback';
import { serverForFile } from '../support/serverAndWorld';
import { phone, visitCodeOf } from '../support/visitPhone';

// Check-ins per client address and site (VISIT_CHECKINS_PER_HOUR, counted in PostgreSQL) and the QR poster.
const file = serverForFile({ VISIT_CHECKINS_PER_HOUR: '3', TRUST_PROXY: 'true' });

const from = (address: string) => ({ 'X-Forwarded-For': address });

describe('check-ins per address and site', () => {
  it('refuses the one past VISIT_CHECKINS_PER_HOUR from one address at one site, with Retry-After', async () => {
    const { server } = file;
    const world = await buildWorld(server);
    const code = await visitCodeOf(world.api, world.siteId);
    const otherCode = await visitCodeOf(world.api, world.otherSiteId);
    const results: number[] = [];
    for (let index = 0; index < 3; index += 1) {
      const key = randomUUID();
      const mine = phone(server.baseUrl, from('203.0.113.7'));
      results.push((await mine.checkIn(code, visitor(), key)).status);
      // A resend of the same request (the answer lost) is not another check-in.
      const resent = await mine.checkIn(code, visitor(), key);
      expect(resent.headers.get('Idempotent-Replayed')).toBe('true');
      results.push(resent.status);
    }
    expect(results).toEqual([201, 201, 201, 201, 201, 201]);
    const fourth = await phone(server.baseUrl, from('203.0.113.7')).checkIn(code, visitor());
    expect(fourth.status).toBe(429);
    expect(fourth.body).toMatchObject({ code: 'RATE_LIMITED' });
    const retryAfter = Number(fourth.headers.get('Retry-After'));
    expect(retryAfter).toBeGreaterThan(3500);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    // Another address, and the same address at another site, each have their own count.
    expect((await phone(server.baseUrl, from('203.0.113.8')).checkIn(code, visitor())).status).toBe(201);
    expect((await phone(server.baseUrl, from('203.0.113.7')).checkIn(otherCode, visitor())).status).toBe(201);
  });

  it('counts an IPv6 address by its /64, and holds under check-ins sent at once', async () => {
    const { server } = file;
    const world = await buildWorld(server);
    const code = await visitCodeOf(world.api, world.siteId);
    const statuses = await Promise.all(
      ['2001:db8:1:2::1', '2001:db8:1:2::2', '2001:db8:1:2::3', '2001:db8:1:2::4', '2001:db8:1:2::5'].map(
        async (address) => (await phone(server.baseUrl, from(address)).checkIn(code, visitor())).status,
      ),
    );
    expect(statuses.filter((status) => status === 201)).toHaveLength(3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(2);
  });
});

describe('the QR poster', () => {
  it("is an A4 PDF with the site's name, Scan to sign in, and the QR code of its visit page", async () => {
    const { server } = file;
    const world = await buildWorld(server);
    await world.api.patch(`/v1/sites/${world.siteId}`, { name: 'Müller & Söhne — 北京' });
    const code = await visitCodeOf(world.api, world.siteId);
    const response = await fetch(`${server.baseUrl}/v1/sites/${world.siteId}/visit-poster.pdf`, {
      headers: { Authorization: `Bearer ${world.token}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    const pdf = readPdf(Buffer.from(await response.arrayBuffer()));
    expect(pdf.pages).toBe(1);
    expect(pdf.pageMm.width).toBeCloseTo(210, 0);
    expect(pdf.pageMm.height).toBeCloseTo(297, 0);
    expect(pdf.text).toContain('Müller & Söhne — 北京');
    expect(pdf.text).toContain('Scan to sign in');
    expect(pdf.qr).toBe(`${server.baseUrl}/visit/${code}`);
    expect(pdf.text.replace(/\s+/g, '')).toContain(`${server.baseUrl}/visit/${code}`);
    expect(pdf.fonts.every((font) => font.embedded)).toBe(true);
  });

  it('needs sites:configure', async () => {
    const { server } = file;
    const world = await buildWorld(server);
    const { buildToken } = await import('../support/factories');
    const reader = await buildToken(server, { accountId: world.accountId, scopes: ['checkins:read'] });
    const api = apiClient(server.baseUrl, reader.token);
    expect((await api.get(`/v1/sites/${world.siteId}/visit-poster.pdf`)).status).toBe(403);
    expect((await api.post(`/v1/sites/${world.siteId}/visit-code`, {})).status).toBe(403);
  });
});

describe('the QR poster behind PUBLIC_URL', () => {
  const behind = serverForFile({ PUBLIC_URL: 'https://gate.example.com/' });
  it('carries PUBLIC_URL, whatever Host the request named', async () => {
    const world = await buildWorld(behind.server);
    const code = await visitCodeOf(world.api, world.siteId);
    const response = await fetch(`${behind.server.baseUrl}/v1/sites/${world.siteId}/visit-poster.pdf`, {
      headers: { Authorization: `Bearer ${world.token}` },
    });
    expect(readPdf(Buffer.from(await response.arrayBuffer())).qr).toBe(`https://gate.example.com/visit/${code}`);
  });
});
