import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../src/core/hash.js';
import { parseStrictJson } from '../../../src/core/json.js';
import { runJob, type JobOptions, type JobResult } from '../../../src/funding/job/job.js';
import { JobError } from '../../../src/funding/job/errors.js';
import { enroll } from '../../../src/applications/enroll.js';
import { backends, tempDir } from '../../helpers/storage.js';
import { srfWithAmount } from '../support.js';
import { startEvidenceServer, type EvidenceServer } from './support.js';

const posix = process.platform !== 'win32';

for (const backend of backends) {
  describe(`the funding job against a real server (${backend.name})`, () => {
    let s: EvidenceServer;
    let state: string;
    let sleeps: number[];
    beforeEach(async () => {
      s = await startEvidenceServer(backend);
      state = tempDir('evidence-job-');
      sleeps = [];
    });
    afterEach(async () => {
      await s.close();
      fs.rmSync(state, { recursive: true, force: true });
    });

    const job = (extra: Partial<JobOptions> = {}) => runJob({ stateDir: state, base: s.base, sleep: async (ms) => void sleeps.push(ms), ...extra });
    const fails = async (extra: Partial<JobOptions> = {}): Promise<JobError> => {
      try {
        await job(extra);
      } catch (error) {
        if (error instanceof JobError) return error;
        throw error;
      }
      throw new Error('expected the job to fail');
    };
    const cursorBytes = () => fs.readFileSync(path.join(state, 'cursor.json'));
    const packetDirs = () => fs.readdirSync(path.join(state, 'packets')).sort();
    const paths = () => s.requests.map((r) => r.path);

    it('updated → unchanged → new packet with a change file → corrupt download fails → stale server fails, the cursor surviving each failure', async () => {
      s.publishers.documents.srf = { body: srfWithAmount(500000) };
      const p1 = await s.capture();

      // 1. First run: no cursor, the packet is downloaded, verified and the cursor written.
      const first = await job();
      expect(first).toEqual({ status: 'updated', packet_id: p1, ready: true, review_asof: '2026-10-20', saved: path.join(state, 'packets', p1), changes: null });
      const cursor = parseStrictJson(cursorBytes()) as Record<string, string>;
      expect(Object.keys(cursor)).toEqual(['etag', 'manifest_sha256', 'packet_id', 'schema']);
      expect(cursor.schema).toBe('financial-evidence.funding-cursor.v1');
      expect(cursor.packet_id).toBe(p1);
      expect(cursor.manifest_sha256).toBe(sha256Hex(fs.readFileSync(path.join(state, 'packets', p1, 'manifest.json'))));
      expect(cursorBytes().toString()).toMatch(/^\{\n {2}"etag": "\\"[0-9a-f]{64}\\"",\n/);
      expect(packetDirs()).toEqual([p1]);
      expect(paths()).toEqual(['/v1/funding/latest', `/packets/${p1}/manifest.json`, `/packets/${p1}/review.json`, `/packets/${p1}/observations.csv`]);
      expect(s.requests[0].headers['if-none-match']).toBeUndefined();
      expect(s.requests[0].headers['user-agent']).toBe('Evidence-Desk-Funding-Job/1');
      expect(s.requests[0].headers.authorization).toBeUndefined();

      // 2. Same packet: a conditional request, 304, nothing written.
      const before = cursorBytes();
      const mtime = fs.statSync(path.join(state, 'cursor.json')).mtimeMs;
      s.requests.length = 0;
      expect(await job()).toEqual({ status: 'unchanged', packet_id: p1, ready: true, review_asof: '2026-10-20' });
      expect(cursorBytes().equals(before)).toBe(true);
      expect(fs.statSync(path.join(state, 'cursor.json')).mtimeMs).toBe(mtime);
      expect(paths()).toEqual(['/v1/funding/latest']);
      expect(s.requests[0].headers['if-none-match']).toBe(cursor.etag);

      // 3. A changed value → new packet; the change document is saved and the cursor advances.
      s.clock.advance(900);
      s.publishers.documents.srf = { body: srfWithAmount(0) };
      const p2 = await s.capture();
      expect(p2).not.toBe(p1);
      s.requests.length = 0;
      const third = await job();
      const changeFile = path.join(state, 'changes', `${p1}--${p2}.json`);
      expect(third).toEqual({ status: 'updated', packet_id: p2, ready: true, review_asof: '2026-10-20', saved: path.join(state, 'packets', p2), changes: changeFile });
      expect(paths()[1]).toBe(`/v1/funding/changes?since=${p1}&until=${p2}`);
      const change = parseStrictJson(fs.readFileSync(changeFile)) as { before: string; after: string; changes: Array<{ metric_id: string; kind: string }> };
      expect(change.before).toBe(p1);
      expect(change.after).toBe(p2);
      expect(change.changes).toEqual([expect.objectContaining({ metric_id: 'liquidity.srf', kind: 'same_date_observation_changed' })]);
      expect((parseStrictJson(cursorBytes()) as { packet_id: string }).packet_id).toBe(p2);
      expect(packetDirs()).toEqual([p1, p2].sort());

      // 4. Another packet whose CSV arrives corrupted: failure, cursor and directories untouched.
      s.clock.advance(900);
      s.publishers.documents.srf = { body: srfWithAmount(2000000) };
      const p3 = await s.capture();
      const atP2 = cursorBytes();
      s.faults.push(async (seen, upstream) => {
        if (!seen.path.endsWith(`${p3}/observations.csv`)) return undefined;
        const answer = await upstream();
        // Same length, another SRF value: only the digest can tell.
        answer.body = Buffer.from(answer.body.toString('utf8').replace(/liquidity\.srf,([0-9])/, (_m, d: string) => `liquidity.srf,${d === '9' ? '8' : Number(d) + 1}`));
        return answer;
      });
      const corrupt = await fails();
      expect(corrupt.failure).toBe('download_invalid');
      expect(corrupt.message).toContain('observations.csv');
      expect(cursorBytes().equals(atP2)).toBe(true);
      expect(packetDirs()).toEqual([p1, p2].sort()); // no p3, no leftover staging directory
      expect(fs.existsSync(path.join(state, 'changes', `${p2}--${p3}.json`))).toBe(false);
      s.faults.length = 0;

      // 5. The server goes stale (no capture for longer than the freshness limit): 503 → failure.
      s.clock.advance(1300);
      s.requests.length = 0;
      sleeps.length = 0;
      const stale = await fails();
      expect(stale.failure).toBe('http_status');
      expect(paths()).toEqual(['/v1/funding/latest', '/v1/funding/latest', '/v1/funding/latest']);
      expect(sleeps).toHaveLength(2);
      expect(cursorBytes().equals(atP2)).toBe(true);
      expect(packetDirs()).toEqual([p1, p2].sort());
      expect(fs.existsSync(path.join(state, '.update.lock'))).toBe(false);
    });

    it('removes the staging directories a killed run left, and updates as usual', async () => {
      const p1 = await s.capture();
      await job();
      // What a run killed during its downloads leaves: a staging directory with part of a packet.
      const left = path.join(state, 'packets', '.capture-0badf00d');
      fs.mkdirSync(left);
      fs.writeFileSync(path.join(left, 'manifest.json'), '{"partial": true');
      s.clock.advance(900);
      s.publishers.documents.srf = { body: srfWithAmount(250000) };
      const p2 = await s.capture();
      expect((await job()).status).toBe('updated');
      expect(packetDirs()).toEqual([p1, p2].sort());
    });

    it('a corrupted local review.json fails before any network request', async () => {
      const p1 = await s.capture();
      await job();
      const review = path.join(state, 'packets', p1, 'review.json');
      fs.writeFileSync(review, fs.readFileSync(review, 'utf8').replace('"ready": true', '"ready": false'));
      const cursor = cursorBytes();
      s.requests.length = 0;
      expect((await fails()).failure).toBe('local_packet_invalid');
      expect(s.requests).toEqual([]);
      expect(cursorBytes().equals(cursor)).toBe(true);
    });

    it('a cursor.json that is not a valid cursor (or a symbolic link) fails before any network request', async () => {
      await s.capture();
      await job();
      s.requests.length = 0;
      const file = path.join(state, 'cursor.json');
      const good = cursorBytes();
      fs.writeFileSync(file, good.toString().replace('financial-evidence.funding-cursor.v1', 'other.v1'));
      expect((await fails()).failure).toBe('cursor_invalid');
      if (posix) {
        fs.writeFileSync(path.join(state, 'elsewhere.json'), good);
        fs.rmSync(file);
        fs.symlinkSync(path.join(state, 'elsewhere.json'), file);
        expect((await fails()).failure).toBe('cursor_invalid');
      }
      expect(s.requests).toEqual([]);
    });

    it.skipIf(!posix)('refuses a token file readable by others (mode 644), a symlinked one and a malformed one, without any request', async () => {
      await s.capture();
      const { token } = await enroll({ storage: s.storage, clock: s.clock }, { excluded: false });
      const tokenFile = path.join(state, '..', `${path.basename(state)}-token`);
      fs.writeFileSync(tokenFile, `${token}\n`, { mode: 0o644 });
      fs.chmodSync(tokenFile, 0o644);
      try {
        const error = await fails({ tokenFile });
        expect(error.failure).toBe('token_file');
        expect(error.message).toContain('chmod 600');
        expect(error.message).not.toContain(token);
        fs.chmodSync(tokenFile, 0o600);
        const link = `${tokenFile}-link`;
        fs.symlinkSync(tokenFile, link);
        expect((await fails({ tokenFile: link })).failure).toBe('token_file');
        fs.rmSync(link);
        const bad = `${tokenFile}-bad`;
        fs.writeFileSync(bad, 'fe_short', { mode: 0o600 });
        expect((await fails({ tokenFile: bad })).failure).toBe('token_file');
        fs.rmSync(bad);
        expect(s.requests).toEqual([]);
        expect(fs.existsSync(path.join(state, 'cursor.json'))).toBe(false);
      } finally {
        fs.rmSync(tokenFile, { force: true });
      }
    });

    it.skipIf(!posix)('sends the key from a private token file and the exclusion headers with --operator', async () => {
      await s.capture();
      const { token } = await enroll({ storage: s.storage, clock: s.clock }, { excluded: false });
      const tokenFile = path.join(state, '..', `${path.basename(state)}-token`);
      fs.writeFileSync(tokenFile, `  ${token}\n`, { mode: 0o600 });
      try {
        const result = await job({ tokenFile, operator: true });
        expect(result.status).toBe('updated');
        expect(JSON.stringify(result)).not.toContain(token);
        const latest = s.requests.find((r) => r.path === '/v1/funding/latest')!;
        expect(latest.headers.authorization).toBe(`Bearer ${token}`);
        expect(latest.headers['x-traffic-class']).toBe('synthetic');
        expect(latest.headers['x-operator-probe']).toBe('funding-daily-job');
        const completions = await s.storage.db.selectFrom('completions').select('traffic_class').execute();
        expect(completions).toEqual([{ traffic_class: 'synthetic' }]);
      } finally {
        fs.rmSync(tokenFile, { force: true });
      }
    });

    it('restarts the transaction on 409 and fails when latest keeps changing for three attempts', async () => {
      s.publishers.documents.srf = { body: srfWithAmount(500000) };
      const p1 = await s.capture();
      await job();
      s.clock.advance(900);
      s.publishers.documents.srf = { body: srfWithAmount(0) };
      await s.capture();
      let conflicts = 2;
      const conflict = async (seen: { path: string }) =>
        seen.path.startsWith('/v1/funding/changes') && conflicts-- > 0
          ? { status: 409, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"detail":"moved","code":"latest_changed"}') }
          : undefined;
      s.faults.push(conflict);
      s.requests.length = 0;
      const ok = await job();
      expect(ok.status).toBe('updated');
      expect(paths().filter((p) => p === '/v1/funding/latest')).toHaveLength(3);

      s.clock.advance(900);
      s.publishers.documents.srf = { body: srfWithAmount(2000000) };
      await s.capture();
      conflicts = 3;
      const before = cursorBytes();
      s.requests.length = 0;
      expect((await fails()).failure).toBe('latest_kept_changing');
      expect(paths().filter((p) => p === '/v1/funding/latest')).toHaveLength(3);
      expect(cursorBytes().equals(before)).toBe(true);
      expect(p1).toBeTruthy();
    });

    it('refuses a changes answer that is not the difference between the two verified packets, saving nothing', async () => {
      s.publishers.documents.srf = { body: srfWithAmount(500000) };
      const p1 = await s.capture();
      await job();
      s.clock.advance(900);
      s.publishers.documents.srf = { body: srfWithAmount(0) };
      const p2 = await s.capture();
      const atP1 = cursorBytes();
      const retag = (answer: { headers: Record<string, string>; body: Buffer }, text: string) => {
        answer.body = Buffer.from(text);
        answer.headers.etag = `"${sha256Hex(answer.body)}"`;
      };
      type Doc = { changes: { before: { value: unknown }; after: { value: unknown }; metric_id: string; kind: string }[]; review_asof: unknown };
      // Each alters only the changes answer, keeping its ETag consistent unless said otherwise.
      const tampers: Array<[string, (answer: { headers: Record<string, string>; body: Buffer }) => void]> = [
        ['no changes at all', (a) => retag(a, a.body.toString().replace(/"changes":\s*\[[\s\S]*\],\s*"packet_id"/, '"changes": [], "packet_id"'))],
        ['another after value', (a) => retag(a, JSON.stringify({ ...(JSON.parse(a.body.toString()) as Doc), changes: (JSON.parse(a.body.toString()) as Doc).changes.map((c) => ({ ...c, after: { ...c.after, value: 12345.678 } })) }))],
        ['an invented change', (a) => {
          const doc = JSON.parse(a.body.toString()) as Doc;
          retag(a, JSON.stringify({ ...doc, changes: [...doc.changes, { ...doc.changes[0], metric_id: 'policy.sofr' }] }));
        }],
        ['another review date', (a) => retag(a, JSON.stringify({ ...(JSON.parse(a.body.toString()) as Doc), review_asof: '2020-01-01' }))],
        ['one byte flipped, ETag left as sent', (a) => {
          a.body = Buffer.from(a.body.toString().replace('same_date_observation_changed', 'same_date_observation_chAnged'));
        }],
      ];
      for (const [name, tamper] of tampers) {
        s.faults.length = 0;
        s.faults.push(async (seen, upstream) => {
          if (!seen.path.startsWith('/v1/funding/changes')) return undefined;
          const answer = await upstream();
          tamper(answer);
          return answer;
        });
        const refused = await fails();
        expect(refused.failure, name).toBe('changes_invalid');
        expect(cursorBytes().equals(atP1), name).toBe(true);
        expect(fs.existsSync(path.join(state, 'changes', `${p1}--${p2}.json`)), name).toBe(false);
        // Nor the new packet directory (spec §8: a failed update leaves it absent).
        expect(packetDirs(), name).toEqual([p1]);
      }
      s.faults.length = 0;
      expect((await job()).status).toBe('updated');
      expect(fs.existsSync(path.join(state, 'changes', `${p1}--${p2}.json`))).toBe(true);
    });

    it('refuses redirects and oversize answers, and an ETag that is not the body digest', async () => {
      await s.capture();
      s.faults.push(async (seen) => (seen.path === '/v1/funding/latest' ? { status: 301, headers: { location: '/elsewhere' }, body: Buffer.alloc(0) } : undefined));
      expect((await fails()).failure).toBe('redirect_refused');
      s.faults.length = 0;
      s.faults.push(async (seen) => (seen.path === '/v1/funding/latest' ? { status: 200, headers: {}, body: Buffer.alloc(300 * 1024, 32) } : undefined));
      s.requests.length = 0;
      expect((await fails()).failure).toBe('response_too_large');
      expect(s.requests).toHaveLength(1);
      s.faults.length = 0;
      s.faults.push(async (seen, upstream) => {
        if (seen.path !== '/v1/funding/latest') return undefined;
        const answer = await upstream();
        answer.headers.etag = `"${'0'.repeat(64)}"`;
        return answer;
      });
      expect((await fails()).failure).toBe('latest_invalid');
      expect(fs.existsSync(path.join(state, 'cursor.json'))).toBe(false);
    });

    it('reuses a verified packet directory left by an interrupted run, and refuses a tampered one', async () => {
      const p1 = await s.capture();
      await job();
      // Simulate a crash after the rename but before the cursor: remove the cursor only.
      fs.rmSync(path.join(state, 'cursor.json'));
      s.requests.length = 0;
      const again = await job();
      expect(again.status).toBe('updated');
      expect(paths()).toEqual(['/v1/funding/latest']);
      fs.rmSync(path.join(state, 'cursor.json'));
      fs.appendFileSync(path.join(state, 'packets', p1, 'observations.csv'), 'x');
      expect((await fails()).failure).toBe('download_invalid');
      expect(fs.existsSync(path.join(state, 'cursor.json'))).toBe(false);
    });

    it('one run at a time: a live lock holder makes the run fail; a dead one is taken over', async () => {
      await s.capture();
      fs.mkdirSync(state, { recursive: true });
      const lock = path.join(state, '.update.lock');
      fs.writeFileSync(lock, JSON.stringify({ pid: process.pid === 1 ? 2 : 1, host: (await import('node:os')).hostname(), started_at: new Date().toISOString() }));
      // pid 1 (init) is alive on any Unix; on Windows use our parent instead.
      if (!posix) fs.writeFileSync(lock, JSON.stringify({ pid: process.ppid, host: (await import('node:os')).hostname(), started_at: new Date().toISOString() }));
      expect((await fails()).failure).toBe('lock_held');
      expect(s.requests).toEqual([]);
      expect(fs.existsSync(lock)).toBe(true);
      // A pid that no longer exists: a finished child process.
      const { spawnSync } = await import('node:child_process');
      const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
      fs.writeFileSync(lock, JSON.stringify({ pid: Number(child.stdout), host: (await import('node:os')).hostname(), started_at: new Date().toISOString() }));
      const result: JobResult = await job();
      expect(result.status).toBe('updated');
      expect(fs.existsSync(lock)).toBe(false);
    });
  });
}
