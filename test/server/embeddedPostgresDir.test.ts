import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from '../../server/src/db/embeddedPostgres';

describe.skipIf(process.getuid?.() !== 0)('the embedded PostgreSQL as root', () => {
  it('refuses, in plain words naming DATA_DIR, a data folder the postgres user cannot reach', async () => {
    const locked = await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-locked-'));
    try {
      await fs.chmod(locked, 0o700);
      const dataDir = path.join(locked, 'project', '.data');
      await expect(startEmbeddedPostgres({ dataDir })).rejects.toThrow(/DATA_DIR .* which the postgres system user cannot enter/);
      await expect(fs.access(dataDir)).rejects.toThrow();
    } finally {
      await fs.rm(locked, { recursive: true, force: true });
    }
  });
});
