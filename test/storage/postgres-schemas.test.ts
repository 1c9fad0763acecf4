import { describe, expect, it } from 'vitest';
import { postgresBackend, postgresUrl } from '../helpers/storage.js';

describe.runIf(postgresUrl)('PostgreSQL stores in separate schemas of one server', () => {
  it('migrates a fresh schema while another schema already holds Kysely\'s migration tables', async () => {
    const first = await postgresBackend.open();
    try {
      const second = await postgresBackend.open();
      try {
        await second.storage.ping();
        expect(await second.storage.db.selectFrom('leases').selectAll().execute()).toEqual([]);
        await first.storage.ping();
      } finally {
        await second.cleanup();
      }
    } finally {
      await first.cleanup();
    }
  });
});
