// A damaged SQLite file, then repaired in place, while the service keeps its handle open.
// SQLite keeps the pages it read from the damaged file for as long as no write changes the
// file, so without help the packet would fail verification until a restart. A failed
// verification tells the store (Storage.distrust): the handle is replaced once the file
// passes its structural check, and the repaired bytes are read and verified again.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { captureOnce } from '../../src/funding/capture.js';
import { loadStoredCurrent } from '../../src/funding/current-cache.js';
import { openSqliteStorage } from '../../src/storage/sqlite.js';
import { liveConfig, testClock } from './support.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'evidence-damaged-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('a store file damaged and then repaired under an open handle', () => {
  it('serves the packet again after the repair, without a restart or a write by anyone', async () => {
    const file = path.join(dir, 'evidence.db');
    const writer = await openSqliteStorage({ file });
    const captured = await captureOnce({ storage: writer, config: liveConfig('http://127.0.0.1:9', { mode: 'sample' }), clock: testClock() });
    expect(captured.ran && captured.attempt.outcome).toBe('packet_created');
    const csv = Buffer.from((await writer.db.selectFrom('funding_packets').select('csv').executeTakeFirstOrThrow()).csv);
    await sql`pragma wal_checkpoint(truncate)`.execute(writer.db);
    await writer.close();

    // Damage one byte of the stored CSV in the file itself: SQLite's structure stays valid.
    const good = fs.readFileSync(file);
    const at = good.indexOf(csv.subarray(0, 64));
    expect(at).toBeGreaterThan(0);
    const damaged = Buffer.from(good);
    damaged[at + 40] ^= 0x01;
    fs.writeFileSync(file, damaged);

    const storage = await openSqliteStorage({ file });
    try {
      expect((await loadStoredCurrent(storage, 'sample')).packet?.kind).toBe('invalid');
      // Repaired in place (same file), as restoring a backup over it would.
      fs.writeFileSync(file, good);
      const read = async () => {
        try {
          return (await loadStoredCurrent(storage, 'sample')).packet?.kind;
        } catch (error) {
          return (error as Error).name;
        }
      };
      // While the handle is replaced, reads may be refused; none may call the packet valid too early
      // or stay invalid once the file is good.
      let kind = await read();
      for (let i = 0; i < 50 && kind !== 'verified'; i++) {
        await new Promise((r) => setTimeout(r, 100));
        kind = await read();
      }
      expect(kind).toBe('verified');
    } finally {
      await storage.close();
    }
  });
});
