import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../shared/src/schemas/common';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import { queryOne } from '../../server/src/db/query';
import { visitor } from '../support/factories';
import { serverAndWorld } from '../support/serverAndWorld';
import { sql } from '../../server/src/db/sql';

const harness = serverAndWorld();
const db = () => harness.server.database;
const people = () => `/v1/sites/${harness.world.siteId}/checkins/people`;

/** A real failure nothing classifies: the statement names a column the database no longer has. */
const breakSchema = () => queryOne(db(), sql`ALTER TABLE person_checkins RENAME COLUMN purpose TO purpose_gone`);
const mendSchema = () => queryOne(db(), sql`ALTER TABLE person_checkins RENAME COLUMN purpose_gone TO purpose`);

describe('an unexpected failure (500 INTERNAL)', () => {
  it('is problem+json with the request id and nothing of the SQL; the log has the cause; a keyed write keeps nothing and its retry goes', async () => {
    const { server, world } = harness;
    const name = `Internal-${randomUUID().slice(0, 8)}`;
    const key = randomUUID();
    await breakSchema();
    try {
      const read = await world.api.get<Problem>(people(), { headers: { 'X-Request-Id': 'broken-read-1' } });
      expect(read.status).toBe(500);
      expect(read.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(read.body).toMatchObject({
        code: 'INTERNAL',
        status: 500,
        requestId: 'broken-read-1',
        instance: people(),
      });
      expect(read.text).not.toMatch(/purpose|column|select|person_checkins/i);

      const write = await world.api.post<Problem>(people(), visitor(name), { idempotencyKey: key });
      expect(write.status).toBe(500);
      expect(write.body.code).toBe('INTERNAL');
    } finally {
      await mendSchema();
    }
    const logged = server.logs.find((line) => line.level === 'error' && line.fields?.requestId === 'broken-read-1');
    expect(String(logged?.fields?.error)).toMatch(/purpose/);
    // Neither the check-in nor the key's record was kept: the same key now creates it.
    const count = await queryOne<{ count: number }>(
      db(),
      sql`SELECT count(*)::int AS count FROM person_checkins WHERE first_name = ${name}`,
    );
    expect(count?.count).toBe(0);
    const retried = await world.api.post<PersonCheckin>(people(), visitor(name), { idempotencyKey: key });
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
  });
});
