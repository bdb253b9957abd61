import http from 'node:http';
import { describe, expect, it } from 'vitest';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import { observeStatements } from '../../server/src/db/query';
import { buildToken, visitor } from '../support/factories';
import { apiClient } from '../support/http';
import { serverAndWorld } from '../support/serverAndWorld';
import { TEST_ADMIN_TOKEN } from '../support/testServer';

const setup = serverAndWorld();
const people = (siteId: number) => `/v1/sites/${siteId}/checkins/people`;
const admin = () => apiClient(setup.server.baseUrl, TEST_ADMIN_TOKEN);

/**
 * A POST whose body arrives in two halves: the headers and the first half, then `meanwhile` (once the
 * server has had time to check the token), then the rest.
 */
function slowPost(
  path: string,
  token: string,
  body: unknown,
  meanwhile: () => Promise<void>,
): Promise<{ status: number; text: string }> {
  const bytes = Buffer.from(JSON.stringify(body));
  const half = Math.floor(bytes.length / 2);
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${setup.server.baseUrl}${path}`,
      {
        method: 'POST',
        agent: false,
        headers: {
          Authorization: `Bearer ${token}`,
          'Content-Type': 'application/json',
          'Content-Length': String(bytes.length),
        },
      },
      (response) => {
        const parts: Buffer[] = [];
        response.on('data', (chunk: Buffer) => parts.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, text: Buffer.concat(parts).toString('utf8') }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.write(bytes.subarray(0, half));
    setTimeout(() => {
      meanwhile().then(() => request.end(bytes.subarray(half)), reject);
    }, 500);
  });
}

async function countNamed(siteId: number, firstName: string): Promise<number> {
  const list = await setup.world.api.get<{ data: PersonCheckin[] }>(`${people(siteId)}?limit=200`);
  return list.body.data.filter((checkin) => checkin.person.firstName === firstName).length;
}

describe('a request whose body is still arriving when its token is revoked or loses the site', () => {
  it('is refused (401) when the token was revoked mid-body, and nothing is written', async () => {
    const { siteId, accountId } = setup.world;
    const token = await buildToken(setup.server, {
      accountId,
      siteIds: [siteId],
      scopes: ['checkins:read', 'checkins:write'],
    });
    const answer = await slowPost(people(siteId), token.token, visitor('Revoked', 'MidBody'), async () => {
      expect((await admin().delete(`/v1/admin/tokens/${token.tokenId}`)).status).toBe(204);
    });
    expect(answer.status, answer.text).toBe(401);
    expect(answer.text).toContain('UNAUTHENTICATED');
    expect(await countNamed(siteId, 'Revoked')).toBe(0);
  });

  it('is a 404 when the site was taken from the token mid-body, and nothing is written', async () => {
    const { siteId, otherSiteId, accountId } = setup.world;
    const token = await buildToken(setup.server, {
      accountId,
      siteIds: [siteId, otherSiteId],
      scopes: ['checkins:read', 'checkins:write'],
    });
    const answer = await slowPost(people(siteId), token.token, visitor('Removed', 'MidBody'), async () => {
      expect((await admin().patch(`/v1/admin/tokens/${token.tokenId}`, { siteIds: [otherSiteId] })).status).toBe(200);
    });
    expect(answer.status, answer.text).toBe(404);
    expect(await countNamed(siteId, 'Removed')).toBe(0);
  });

  it('still succeeds when nothing changed meanwhile; a body that came with its headers costs one token lookup, as before', async () => {
    const { siteId, token } = setup.world;
    const slow = await slowPost(people(siteId), token, visitor('Slow', 'Body'), async () => undefined);
    expect(slow.status, slow.text).toBe(201);

    let lookups = 0;
    const stop = observeStatements(setup.server.database, (statement) => {
      if (/FROM api_tokens/.test(statement.text)) lookups += 1;
    });
    try {
      for (let i = 0; i < 20; i += 1)
        expect((await setup.world.api.post(people(siteId), visitor('Quick', 'Body'))).status).toBe(201);
    } finally {
      stop();
    }
    expect(lookups).toBe(20);
  });
});
