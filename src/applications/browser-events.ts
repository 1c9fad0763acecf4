// Consented browser download counters: a dataset separate from application usage. The page
// sends an event only after the person ticked consent and a download verified in the
// browser; the visitor id it made up is stored only as HMAC-SHA-256 under a secret the
// service creates in its store on first use, so the stored value cannot be linked back to
// the id without the store's secret, and forgetting works by recomputing the same hash.

import { createHmac, randomBytes } from 'node:crypto';
import { AppError, isAppError } from '../core/errors.js';
import { findPacket } from '../funding/archive.js';
import { PacketVerificationError, verifyStoredPacket } from '../funding/verify.js';
import type { ApplicationContext } from './context.js';
import { shiftDate, utcDate } from './days.js';
import { ApplicationErrors, STORAGE_RETRY_AFTER_SECONDS } from './errors.js';
import type { BrowserEvent, BrowserEventAnswer, ForgetRequest } from './schemas.js';
import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.js';

export const BROWSER_EVENT_BODY_LIMIT = 1024;
/** Events kept: this many UTC dates, today included. */
export const BROWSER_EVENT_RETENTION_DAYS = 30;
export const BROWSER_EVENTS_PER_DAY = 5000;
export const BROWSER_EVENTS_PER_VISITOR_PER_DAY = 50;
export const BROWSER_EVENT_SCOPE = 'unverified_consented_browser_event';
const SECRET_NAME = 'browser-visitor';
const EVENTS_LOCK = 'browser-events';

const VISITOR = /^[0-9a-f]{32}$/;
const PACKET = /^[0-9]{8}T[0-9]{6}\.[0-9]{6}Z-[0-9a-f]{32}$/;

function invalid(message: string): AppError {
  return new AppError(ApplicationErrors.invalid_usage_event, message);
}

function exactKeys(body: unknown, keys: readonly string[]): body is Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const own = Object.keys(body);
  return own.length === keys.length && keys.every((k) => Object.hasOwn(body, k));
}

/** The event body, or a 400 saying what is wrong with it. */
export function parseBrowserEvent(body: unknown): BrowserEvent {
  if (!exactKeys(body, ['visitor', 'consent', 'packet_id', 'kind', 'traffic_class'])) {
    throw invalid('an event is exactly {"visitor", "consent", "packet_id", "kind", "traffic_class"}');
  }
  const { visitor, consent, packet_id, kind, traffic_class } = body;
  if (typeof visitor !== 'string' || !VISITOR.test(visitor)) throw invalid('visitor must be 32 lowercase hexadecimal characters');
  if (consent !== true) throw invalid('consent must be the JSON value true');
  if (typeof packet_id !== 'string' || !PACKET.test(packet_id)) throw invalid('packet_id is not a packet id');
  if (kind !== 'packet_download') throw invalid('kind must be "packet_download"');
  if (traffic_class !== 'browser' && traffic_class !== 'operator') throw invalid('traffic_class must be "browser" or "operator"');
  return { visitor, consent, packet_id, kind, traffic_class };
}

export function parseForget(body: unknown): ForgetRequest {
  if (!exactKeys(body, ['visitor', 'consent'])) throw invalid('a forget request is exactly {"visitor", "consent": true}');
  const { visitor, consent } = body;
  if (typeof visitor !== 'string' || !VISITOR.test(visitor)) throw invalid('visitor must be 32 lowercase hexadecimal characters');
  if (consent !== true) throw invalid('consent must be the JSON value true');
  return { visitor, consent };
}

/** The visitor secret: read, or created once (the first writer wins; every instance then reads it). */
export async function visitorSecret(db: Kysely<Database>): Promise<Buffer> {
  const existing = await db.selectFrom('service_secrets').select('value_hex').where('name', '=', SECRET_NAME).executeTakeFirst();
  if (existing) return Buffer.from(existing.value_hex, 'hex');
  await db
    .insertInto('service_secrets')
    .values({ name: SECRET_NAME, value_hex: randomBytes(32).toString('hex') })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const stored = await db.selectFrom('service_secrets').select('value_hex').where('name', '=', SECRET_NAME).executeTakeFirstOrThrow();
  return Buffer.from(stored.value_hex, 'hex');
}

export function visitorHash(secret: Buffer, visitor: string): string {
  return createHmac('sha256', secret).update(visitor, 'utf8').digest('hex');
}

function storeFailure(error: unknown, what: string): never {
  if (isAppError(error)) throw error;
  throw new AppError(ApplicationErrors.application_storage_unavailable, `the usage store could not ${what}; retry later`, {
    headers: { 'retry-after': String(STORAGE_RETRY_AFTER_SECONDS) },
    cause: error,
  });
}

/** Events dated before this are outside retention. */
export function browserEventCutoff(today: string): string {
  return shiftDate(today, -(BROWSER_EVENT_RETENTION_DAYS - 1));
}

export async function purgeBrowserEvents(db: Kysely<Database>, today: string): Promise<number> {
  const result = await db.deleteFrom('browser_events').where('day', '<', browserEventCutoff(today)).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Records one event: operator traffic is acknowledged and dropped; the packet must exist in
 * this mode's archive and verify; one row per visitor, date, packet and kind; caps per date.
 */
export async function recordBrowserEvent(ctx: ApplicationContext & { mode: string }, event: BrowserEvent): Promise<BrowserEventAnswer> {
  if (event.traffic_class === 'operator') return { recorded: false, reason: 'operator_excluded' };
  const today = utcDate(ctx.clock());
  try {
    const packet = await findPacket(ctx.storage.db, event.packet_id);
    if (!packet || packet.mode !== ctx.mode) throw new AppError(ApplicationErrors.usage_event_packet_unavailable, 'this archive holds no such packet');
    try {
      verifyStoredPacket(packet);
    } catch (error) {
      if (error instanceof PacketVerificationError) throw new AppError(ApplicationErrors.usage_event_packet_unavailable, 'the packet fails verification');
      throw error;
    }
    const hash = visitorHash(await visitorSecret(ctx.storage.db), event.visitor);
    const recorded = await ctx.storage.serialized(EVENTS_LOCK, async (trx) => {
      const key = { visitor_hash: hash, day: today, packet: event.packet_id, kind: event.kind };
      const seen = await trx
        .selectFrom('browser_events')
        .select('day')
        .where('visitor_hash', '=', hash)
        .where('day', '=', today)
        .where('packet', '=', event.packet_id)
        .where('kind', '=', event.kind)
        .executeTakeFirst();
      if (seen) return false;
      const counts = await trx
        .selectFrom('browser_events')
        .where('day', '=', today)
        .select((eb) => [eb.fn.countAll<number>().as('all'), eb.fn.sum<number>(eb.case().when('visitor_hash', '=', hash).then(1).else(0).end()).as('mine')])
        .executeTakeFirstOrThrow();
      if (Number(counts.all) >= BROWSER_EVENTS_PER_DAY) {
        throw new AppError(ApplicationErrors.usage_event_allowance_reached, `this service accepts at most ${BROWSER_EVENTS_PER_DAY} browser events per UTC date`);
      }
      if (Number(counts.mine ?? 0) >= BROWSER_EVENTS_PER_VISITOR_PER_DAY) {
        throw new AppError(ApplicationErrors.usage_event_allowance_reached, `a visitor can send at most ${BROWSER_EVENTS_PER_VISITOR_PER_DAY} events per UTC date`);
      }
      await trx.insertInto('browser_events').values(key).execute();
      return true;
    });
    return { recorded, scope: BROWSER_EVENT_SCOPE };
  } catch (error) {
    storeFailure(error, 'record the event');
  }
}

/** Deletes every event of a visitor. */
export async function forgetVisitor(ctx: ApplicationContext, request: ForgetRequest): Promise<{ deleted: true }> {
  try {
    const hash = visitorHash(await visitorSecret(ctx.storage.db), request.visitor);
    await ctx.storage.db.deleteFrom('browser_events').where('visitor_hash', '=', hash).execute();
    return { deleted: true };
  } catch (error) {
    storeFailure(error, 'forget the visitor');
  }
}

export interface BrowserUsage {
  retention_days: number;
  consented_download_events: number;
  anonymous_visitors_14d: number;
  visitors_on_3_days_in_14d: number;
  verified_fund_organizations: null;
  scope: string;
}

const BROWSER_SCOPE =
  'Events a browser sent after its user ticked consent and a download verified in that browser; visitors are random ids kept in the browser and stored here only as a keyed hash. Unverified: a visitor is a browser profile, not a person or an organization.';

/** The browser section of the usage report (retention applied first). */
export async function browserUsage(db: Kysely<Database>, today: string): Promise<BrowserUsage> {
  await purgeBrowserEvents(db, today);
  const since = shiftDate(today, -13);
  const total = await db.selectFrom('browser_events').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const perVisitor = await db
    .selectFrom('browser_events')
    .where('day', '>=', since)
    .select(['visitor_hash', (eb) => eb.fn.count<number>('day').distinct().as('days')])
    .groupBy('visitor_hash')
    .execute();
  return {
    retention_days: BROWSER_EVENT_RETENTION_DAYS,
    consented_download_events: Number(total.n),
    anonymous_visitors_14d: perVisitor.length,
    visitors_on_3_days_in_14d: perVisitor.filter((v) => Number(v.days) >= 3).length,
    verified_fund_organizations: null,
    scope: BROWSER_SCOPE,
  };
}
