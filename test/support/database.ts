import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { withDatabase } from '../../server/src/postgres/embeddedPostgres';

const TEMPLATE_DATABASE = 'gatehouse_template';

/** A fresh, migrated database for one test file: a copy of the template (milliseconds, not a migration run). */
export async function createTestDatabase(): Promise<string> {
  const serverUrl = inject('pgServerUrl');
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    for (let attempt = 0; ; attempt += 1) {
      try {
        await admin.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DATABASE}`);
        break;
      } catch (error) {
        // Two files cloning at the same instant can see each other on the template: try again.
        if (attempt >= 20 || !/being accessed by other users/.test(String(error))) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  } finally {
    await admin.end();
  }
  return withDatabase(serverUrl, name);
}
