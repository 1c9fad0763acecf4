// A `serve` process killed (SIGKILL) in the middle of its start-up capture leaves its capture
// lease behind. The next `serve` on the same store must recognise that lease's holder as
// dead and capture at once — not wait for the lease to expire, nor for a whole interval.
import fs from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { PUBLISHER_KEYS } from '../../src/funding/publishers/types.js';
import { CAPTURE_LEASE } from '../../src/funding/archive.js';
import { tempDir } from '../helpers/storage.js';
import { startServe, type ServedProcess } from '../helpers/serve.js';
import { eventually } from '../helpers/sqlite-corrupt.js';
import { startPublisherServer, type PublisherServer } from '../funding/support.js';

let served: ServedProcess[] = [];
let publishers: PublisherServer | undefined;
let dir: string | undefined;
afterEach(async () => {
  for (const s of served) s.kill();
  await publishers?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  served = [];
  publishers = dir = undefined;
});

function readStore<T>(file: string, read: (db: BetterSqlite3.Database) => T): T {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

describe.runIf(process.platform === 'linux')('serve after a crash during a capture', () => {
  it('takes over the dead process\'s capture lease and captures promptly', async () => {
    dir = tempDir();
    const file = path.join(dir, 'evidence.db');
    publishers = await startPublisherServer();
    // Slow enough that the first process is surely killed mid-capture.
    for (const key of PUBLISHER_KEYS) publishers.documents[key].delayMs = 20_000;
    const args = [
      '--data-dir', dir, '--capture-interval', '900',
      '--publisher-base-nyfed', publishers.base, '--publisher-base-frb', publishers.base, '--publisher-base-treasury', publishers.base,
    ];

    const first = await startServe(args);
    served.push(first);
    await eventually(async () => {
      if (publishers!.requests.length === 0) throw new Error('the start-up capture has not asked a publisher yet');
    });
    first.child.kill('SIGKILL');
    await once(first.child, 'exit');
    const deadLease = readStore(file, (db) => db.prepare('select holder, expires_at from leases where name = ?').get(CAPTURE_LEASE)) as { holder: string; expires_at: number };
    expect(JSON.parse(deadLease.holder)).toMatchObject({ pid: first.child.pid });
    expect(readStore(file, (db) => db.prepare('select count(*) as n from funding_attempts').get())).toEqual({ n: 0 });

    for (const key of PUBLISHER_KEYS) publishers.documents[key].delayMs = 0;
    const asked = publishers.requests.length;
    const second = await startServe(args);
    served.push(second);
    const attempt = await eventually(async () => {
      const row = readStore(file, (db) => db.prepare('select recorded_at_us from funding_attempts').get()) as { recorded_at_us: number } | undefined;
      if (!row) throw new Error('no attempt recorded yet');
      return row;
    });
    // The second process asked the publishers itself, and recorded its attempt while the
    // dead holder's lease was still unexpired: it was taken over, not waited out.
    expect(publishers.requests.length).toBeGreaterThan(asked);
    expect(attempt.recorded_at_us / 1000).toBeLessThan(deadLease.expires_at);
    const latest = await fetch(`${second.address}/v1/funding/latest`);
    expect(latest.status).toBe(503);
    // The recorded documents are older than a live capture accepts today, so the attempt
    // failed on its content — which proves it ran; `evidence_not_captured` would mean it had not.
    expect(((await latest.json()) as { code: string }).code).not.toBe('evidence_not_captured');
    expect(await second.stop()).toBe(0);
  }, 120_000);
});
