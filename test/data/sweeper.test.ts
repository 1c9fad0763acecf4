// The retention sweep as a background service: it sweeps at start and on its timer, one
// instance at a time per store, and `serve` starts it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SERVICES } from '../../src/cli/services.js';
import { queryDataset } from '../../src/data/service.js';
import { DATA_SWEEP_LEASE, dataSnapshotSweeper, sweepOnce } from '../../src/data/sweeper.js';
import type { ServiceLogger } from '../../src/platform/services.js';
import { backends } from '../helpers/storage.js';
import { atlasDoc } from './documents.js';
import { liveConfig, makeContext, serveJson, startSourceServer, testClock, type SourceServer } from './support.js';

const quiet: ServiceLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

for (const backend of backends) {
  describe(`data snapshot sweeper on ${backend.name}`, () => {
    let opened: Awaited<ReturnType<typeof backend.open>>;
    let server: SourceServer;
    beforeEach(async () => {
      opened = await backend.open();
      server = await startSourceServer();
      serveJson(server, 'money-market', atlasDoc([{ id: 'US-USD' }]));
    });
    afterEach(async () => {
      await server.close();
      await opened.cleanup();
    });

    it('is one of the services serve starts', () => {
      expect(SERVICES).toContain(dataSnapshotSweeper);
    });

    it('removes expired snapshots when it starts', async () => {
      const clock = testClock();
      const config = liveConfig(server);
      await queryDataset(makeContext(opened.storage, config, clock), { dataset: 'money_markets' });
      expect(await opened.storage.db.selectFrom('data_snapshots').selectAll().execute()).toHaveLength(1);
      clock.advance(91 * 86400);
      const running = dataSnapshotSweeper.start({ config, storage: opened.storage, clock, logger: quiet })!;
      await running.idle();
      await running.stop();
      expect(await opened.storage.db.selectFrom('data_snapshots').selectAll().execute()).toEqual([]);
      expect(await opened.storage.db.selectFrom('data_retrievals').selectAll().execute()).toEqual([]);
    });

    it('leaves the sweep to the instance that holds the lease', async () => {
      const clock = testClock();
      const config = liveConfig(server);
      expect(await opened.storage.tryLease(DATA_SWEEP_LEASE, 'another-instance', 60_000)).toBe(true);
      const other = await opened.openAnother();
      try {
        expect(await sweepOnce({ storage: other, config, clock })).toBeNull();
        await opened.storage.releaseLease(DATA_SWEEP_LEASE, 'another-instance');
        expect(await sweepOnce({ storage: other, config, clock })).toEqual({ snapshots_removed: 0, retrievals_removed: 0, blobs_removed: 0 });
      } finally {
        await other.close();
      }
    });
  });
}
