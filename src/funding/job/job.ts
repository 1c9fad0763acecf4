// The daily client job: keep a verified local copy of the latest funding packet and a
// cursor, using only the public read API.
//
//   1. lock the state directory; build the request headers
//   2. verify the local copy the cursor points at — before any network use
//   3. up to three transactions: conditional latest, then (when the packet moved) changes
//      since the cursor until the new latest; a 409 restarts the transaction
//   4. verify an existing packet directory, or download into staging, verify, rename
//   5. require the saved review results to equal the latest observations
//   6. write the change document, then 7. the cursor — last, and only if all verified
//
// Any failure leaves the prior cursor and files as they were.

import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../../core/hash.js';
import { encodeCanonicalDocument, JsonSyntaxError, parseStrictJson } from '../../core/json.js';
import { readCursor, writeCursor, type Cursor } from './cursor.js';
import { JobError } from './errors.js';
import { existsNoFollow, syncDirectory, writeAtomic, writeExclusive } from './files.js';
import { JobHttp, type HttpResult, type JobHttpOptions } from './http.js';
import { acquireLock } from './lock.js';
import { isPacketId } from './packet-id.js';
import { readTokenFile } from './token-file.js';
import { PACKET_FILE_NAMES, verifyPacketDirectory, type VerifiedPacket } from './verify.js';
import { ComparisonError, compareRows } from '../compare-rows.js';
import type { ObservationRowDocument } from '../schemas/common.js';

export const JOB_USER_AGENT = 'Evidence-Desk-Funding-Job/1';
export const MAX_TRANSACTIONS = 3;
const LATEST_SCHEMA = 'financial-evidence.funding.v1';
const CHANGES_SCHEMA = 'financial-evidence.funding-changes.v1';

export interface JobOptions {
  stateDir: string;
  /** Base URL of the service, e.g. http://127.0.0.1:8080 or https://host/funding-evidence. */
  base: string;
  tokenFile?: string;
  operator?: boolean;
  sleep?: JobHttpOptions['sleep'];
  dispatcher?: JobHttpOptions['dispatcher'];
  timeoutMs?: number;
  progress?: (message: string) => void;
}

export type JobResult =
  | { status: 'unchanged'; packet_id: string; ready: true; review_asof: string | null }
  | { status: 'updated'; packet_id: string; ready: true; review_asof: string | null; saved: string; changes: string | null };

interface LatestDocument {
  etag: string;
  body: Record<string, unknown>;
  packetId: string;
  manifestSha256: string;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Checks the base URL; a key is only ever sent over HTTPS or to this machine. */
export function checkBase(base: string, withToken: boolean): string {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new JobError('usage', `--base must be an absolute http(s) URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new JobError('usage', '--base must use http or https');
  if (url.search || url.hash || url.username || url.password) throw new JobError('usage', '--base must not carry a query, fragment or credentials');
  if (withToken && url.protocol === 'http:' && !LOOPBACK.has(url.hostname)) {
    throw new JobError('usage', 'a token is only sent over https (or to this machine); use an https --base');
  }
  return base.replace(/\/+$/, '');
}

function parseJsonObject(result: HttpResult, what: string, failure: 'latest_invalid' | 'changes_invalid'): Record<string, unknown> {
  let doc: unknown;
  try {
    doc = parseStrictJson(result.body);
  } catch (error) {
    if (error instanceof JsonSyntaxError) throw new JobError(failure, `${what} is not strict JSON: ${error.message}`);
    throw error;
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) throw new JobError(failure, `${what} is not a JSON object`);
  return doc as Record<string, unknown>;
}

function statusError(url: string, result: HttpResult): JobError {
  if (result.status >= 300 && result.status < 400 && result.status !== 304) {
    return new JobError('redirect_refused', `GET ${url} answered ${result.status}; redirects are not followed`);
  }
  return new JobError('http_status', `GET ${url} answered ${result.status}`);
}

export async function runJob(options: JobOptions): Promise<JobResult> {
  const progress = options.progress ?? (() => undefined);
  const stateDir = path.resolve(options.stateDir);
  const base = checkBase(options.base, options.tokenFile !== undefined);
  try {
    fs.mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new JobError('io', `cannot create the state directory ${stateDir}`, { cause: error });
  }

  const lock = acquireLock(stateDir);
  try {
    removeLeftStaging(stateDir);
    // 1. Headers. The token goes only into Authorization, never into output.
    const headers: Record<string, string> = { 'user-agent': JOB_USER_AGENT };
    if (options.tokenFile !== undefined) headers.authorization = `Bearer ${readTokenFile(options.tokenFile)}`;
    if (options.operator) {
      headers['x-traffic-class'] = 'synthetic';
      headers['x-operator-probe'] = 'funding-daily-job';
    }

    // 2. The local copy must be intact before we talk to anyone.
    const cursor = readCursor(stateDir);
    let local: VerifiedPacket | null = null;
    if (cursor) {
      progress(`verifying the local copy of ${cursor.packet_id}`);
      local = verifyPacketDirectory(packetDir(stateDir, cursor.packet_id), cursor.packet_id, cursor.manifest_sha256, 'local_packet_invalid');
    }
    const localAsof = local?.reviewAsof ?? null;

    const http = new JobHttp({
      headers,
      sleep: options.sleep,
      dispatcher: options.dispatcher,
      timeoutMs: options.timeoutMs,
      onRetry: ({ attempt, waitMs, reason }) => progress(`${reason}; retrying in ${Math.round(waitMs / 1000)} s (attempt ${attempt + 1})`),
    });

    // 3. Conditional latest, then changes; restart when latest moved in between.
    for (let transaction = 1; ; transaction++) {
      progress(`checking ${base}/v1/funding/latest`);
      const latestUrl = `${base}/v1/funding/latest`;
      const latestResult = await http.get(latestUrl, cursor ? { 'if-none-match': cursor.etag } : {});
      if (latestResult.status === 304) {
        if (!cursor) throw new JobError('latest_invalid', 'the server answered 304 to an unconditional request');
        if (latestResult.headers.etag !== cursor.etag) throw new JobError('latest_invalid', 'the 304 answer carries another ETag than the cursor');
        return { status: 'unchanged', packet_id: cursor.packet_id, ready: true, review_asof: localAsof };
      }
      if (latestResult.status !== 200) throw statusError(latestUrl, latestResult);
      const latest = readLatest(latestResult);

      let changesDoc: Record<string, unknown> | null = null;
      if (cursor && cursor.packet_id !== latest.packetId) {
        const changesUrl = `${base}/v1/funding/changes?since=${encodeURIComponent(cursor.packet_id)}&until=${encodeURIComponent(latest.packetId)}`;
        progress(`fetching changes ${cursor.packet_id} → ${latest.packetId}`);
        const changesResult = await http.get(changesUrl);
        if (changesResult.status === 409) {
          if (transaction < MAX_TRANSACTIONS) continue;
          throw new JobError('latest_kept_changing', `the latest packet changed during all ${MAX_TRANSACTIONS} attempts`);
        }
        if (changesResult.status !== 200) throw statusError(changesUrl, changesResult);
        const changesTag = changesResult.headers.etag;
        if (changesTag !== undefined && changesTag !== `"${sha256Hex(changesResult.body)}"`) {
          throw new JobError('changes_invalid', 'the changes ETag is not the SHA-256 of the body received');
        }
        changesDoc = parseJsonObject(changesResult, 'the changes answer', 'changes_invalid');
        if (changesDoc.schema !== CHANGES_SCHEMA) throw new JobError('changes_invalid', `the changes answer is not ${CHANGES_SCHEMA}`);
        if (changesDoc.before !== cursor.packet_id || changesDoc.after !== latest.packetId) {
          throw new JobError('changes_invalid', 'the changes answer does not run from the cursor packet to the new latest packet');
        }
        if (changesDoc.ready !== true) throw new JobError('changes_invalid', 'the changes answer is not ready');
      }

      // The changes answer must say what the cursor's verified packet and the latest
      // observations say; checked before anything is written, so a refused answer leaves
      // no new packet directory behind (the packet is then verified to hold those observations).
      if (changesDoc && local) checkChanges(changesDoc, local, latest);
      // 4–5. The packet itself, verified, with review results equal to the observations.
      const { path: saved, placed } = await obtainPacket(http, base, stateDir, latest, cursor, progress);

      // 6. The change document, then 7. the cursor.
      let changesPath: string | null = null;
      try {
        if (changesDoc && cursor) {
          const dir = path.join(stateDir, 'changes');
          fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
          changesPath = path.join(dir, `${cursor.packet_id}--${latest.packetId}.json`);
          writeAtomic(changesPath, Buffer.from(encodeCanonicalDocument(changesDoc), 'utf8'));
        }
        writeCursor(stateDir, { packet_id: latest.packetId, etag: latest.etag, manifest_sha256: latest.manifestSha256 });
      } catch (error) {
        // The cursor still names the previous packet: nothing this run placed stays.
        if (placed) fs.rmSync(saved, { recursive: true, force: true });
        if (changesPath !== null) fs.rmSync(changesPath, { force: true });
        throw error;
      }
      const asof = latest.body.review_asof;
      return {
        status: 'updated',
        packet_id: latest.packetId,
        ready: true,
        review_asof: typeof asof === 'string' ? asof : null,
        saved,
        changes: changesPath,
      };
    }
  } catch (error) {
    if (error instanceof JobError) throw error;
    const code = (error as NodeJS.ErrnoException)?.code;
    throw new JobError('io', `local file operation failed${code ? ` (${code})` : ''}`, { cause: error });
  } finally {
    lock.release();
  }
}

function packetDir(stateDir: string, packetId: string): string {
  return path.join(stateDir, 'packets', packetId);
}

function readLatest(result: HttpResult): LatestDocument {
  const body = parseJsonObject(result, 'the latest answer', 'latest_invalid');
  if (body.schema !== LATEST_SCHEMA) throw new JobError('latest_invalid', `the latest answer is not ${LATEST_SCHEMA}`);
  if (body.ready !== true) throw new JobError('latest_invalid', 'the latest answer is not ready');
  if (!isPacketId(body.packet_id)) throw new JobError('latest_invalid', 'the latest answer has an invalid packet id');
  const etag = `"${sha256Hex(result.body)}"`;
  if (result.headers.etag !== etag) throw new JobError('latest_invalid', 'the latest ETag is not the SHA-256 of the body received');
  if (typeof body.manifest_sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(body.manifest_sha256)) {
    throw new JobError('latest_invalid', 'the latest answer has no valid manifest_sha256');
  }
  return { etag, body, packetId: body.packet_id, manifestSha256: body.manifest_sha256 };
}

/**
 * A changes answer must be exactly the difference between the cursor's packet and the new
 * one, both verified by now: anything else (a flipped value, a dropped or invented change)
 * is refused rather than saved as evidence.
 */
function checkChanges(doc: Record<string, unknown>, before: VerifiedPacket, latest: LatestDocument): void {
  const after = latest.body.observations;
  if (!Array.isArray(before.results) || !Array.isArray(after)) throw new JobError('changes_invalid', 'the packets hold no observation rows to compare');
  let expected;
  try {
    expected = compareRows(before.results as ObservationRowDocument[], after as ObservationRowDocument[]);
  } catch (error) {
    if (error instanceof ComparisonError) throw new JobError('changes_invalid', `the server sent changes for packets that cannot be compared (${error.message})`);
    throw error;
  }
  if (encodeCanonicalDocument(doc.changes) !== encodeCanonicalDocument(expected)) {
    throw new JobError('changes_invalid', 'the changes answer differs from the difference between the two verified packets');
  }
  if (doc.packet_id !== latest.packetId || doc.review_asof !== (latest.body.review_asof ?? null)) {
    throw new JobError('changes_invalid', 'the changes answer names another packet or review date than the latest answer');
  }
}

function sameResults(results: unknown, observations: unknown): boolean {
  if (!Array.isArray(results) || !Array.isArray(observations)) return false;
  return encodeCanonicalDocument(results) === encodeCanonicalDocument(observations);
}

const STAGING_PREFIX = '.capture-';

/**
 * Staging directories a killed run left (a run removes its own on any failure it sees).
 * Called under the state directory's lock, so no other run is filling one.
 */
function removeLeftStaging(stateDir: string): void {
  const packets = path.join(stateDir, 'packets');
  let names: string[];
  try {
    names = fs.readdirSync(packets);
  } catch {
    return;
  }
  for (const name of names) if (name.startsWith(STAGING_PREFIX)) fs.rmSync(path.join(packets, name), { recursive: true, force: true });
}

/**
 * Verifies an existing packet directory or downloads the packet into place; returns its path,
 * and whether this run placed it.
 */
async function obtainPacket(
  http: JobHttp,
  base: string,
  stateDir: string,
  latest: LatestDocument,
  cursor: Cursor | null,
  progress: (message: string) => void,
): Promise<{ path: string; placed: boolean }> {
  const target = packetDir(stateDir, latest.packetId);
  if (existsNoFollow(target)) {
    const local = verifyPacketDirectory(target, latest.packetId, latest.manifestSha256, cursor?.packet_id === latest.packetId ? 'local_packet_invalid' : 'download_invalid');
    if (!sameResults(local.results, latest.body.observations)) throw new JobError('observations_mismatch', 'the saved review results differ from the latest observations');
    return { path: target, placed: false };
  }
  const packets = path.join(stateDir, 'packets');
  fs.mkdirSync(packets, { recursive: true, mode: 0o755 });
  const staging = path.join(packets, `${STAGING_PREFIX}${randomBytes(4).toString('hex')}`);
  fs.mkdirSync(staging, { mode: 0o755 });
  try {
    for (const name of PACKET_FILE_NAMES) {
      const url = `${base}/packets/${latest.packetId}/${name}`;
      progress(`downloading ${name}`);
      const result = await http.get(url);
      if (result.status !== 200) throw statusError(url, result);
      writeExclusive(path.join(staging, name), result.body);
    }
    const staged = verifyPacketDirectory(staging, latest.packetId, latest.manifestSha256, 'download_invalid');
    if (!sameResults(staged.results, latest.body.observations)) throw new JobError('observations_mismatch', 'the downloaded review results differ from the latest observations');
    syncDirectory(staging);
    fs.renameSync(staging, target);
    syncDirectory(packets);
    return { path: target, placed: true };
  } catch (error) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw error;
  }
}
