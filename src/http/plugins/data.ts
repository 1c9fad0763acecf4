// Data query routes (group C): release, datasets, sources, query (JSON or CSV) and the
// snapshot listing. Handlers are thin: the domain (src/data/service.ts) validates before it
// fetches or reads anything and returns a plain body; the plugin encodes it with Python
// number formatting, tags it with a strong ETag (SHA-256 of the exact bytes) and answers
// If-None-Match with 304. `/query` gets its bytes and tag from answerQuery, which keeps
// encoded answers per snapshot, so a 304 is decided on the tag without building the body. Every invalid query parameter answers with the group's one 422
// body; every other failure keeps the evidence error shape.
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { isAppError } from '../../core/errors.js';
import { recordDataRead, recordDataReadNow, hasDataExclusionHeader, type DataReadEvent } from '../../applications/data-reads.js';
import type { ApplicationContext } from '../../applications/context.js';
import { resolveCaller } from '../../applications/credential.js';
import { sha256Hex } from '../../core/hash.js';
import type { AnswerMeasurement } from '../../data/answer-cache.js';
import { encodeDataBody } from '../../data/encode.js';
import { openbbApps, openbbWidgets } from '../../data/openbb.js';
import { answerQuery, listDatasets, listSnapshots, listSources, release } from '../../data/service.js';
import { validateQuery } from '../../data/validate.js';
import { ifNoneMatchMatches } from '../conditional.js';
import { dataContextFor } from '../data-context.js';
import { flushUsageOnClose } from '../usage.js';
import type { AppDeps } from '../deps.js';
import { serveRoute, type GroupPluginOptions } from '../route.js';
import { DATA_ROUTES, DataDatasets, DataQuery, DataRelease, DataSnapshots, DataSources, OpenBBApps, OpenBBWidgets } from '../routes/data.js';
import { useCors, type CorsPolicy } from '../cors.js';
import { liveTagOf } from '../../data/live-tag.js';

/** Header that names the snapshot an answer was read from (the CSV body cannot say it). */
export const SNAPSHOT_HEADER = 'x-evidence-snapshot';

/** Cross-origin reads of every group C route (its review routes included, as upstream's app-wide CORS). */
export const DATA_CORS: CorsPolicy = {
  methods: ['GET'],
  allowMethods: 'GET, HEAD, OPTIONS',
  requestHeaders: ['Content-Type', 'Authorization', 'If-None-Match', 'X-Service-Traffic-Class', 'X-Liquilens-Traffic-Class', 'X-Traffic-Class'],
  exposed: 'ETag, X-Evidence-Snapshot, X-Evidence-Mode, X-Financial-Evidence-Measurement, X-Financial-Evidence-Capture, X-Data-Readiness, X-Release-Identity, X-Funding-Review-Scope, X-Funding-Review-As-Of',
  maxAgeSeconds: '600',
  // Upstream §8 items 30 and 34: a granted preflight is a 200.
  preflightStatus: 200,
};

/** Revalidate every time: the ETag decides whether the stored copy is still this answer. */
const REVALIDATE = 'no-cache';
/** Upstream: query answers are not stored (an unpinned answer carries the live cache age). */
const NO_STORE = 'no-store';

interface Representation {
  /** The body, or a function giving it (asked only for a 200). */
  bytes: Buffer | (() => Buffer);
  /** The strong tag of those bytes when already known, or the weak tag of an answer with live ages. */
  etag?: string;
  type: string;
  cacheControl: string;
  snapshotId?: string;
  headers?: Record<string, string>;
  /** Measures the answer once 200 or 304 is decided: the measurement header, at once when no store write is needed. */
  measure?: (notModified: boolean) => string | Promise<string>;
  /** Given the headers set before the measurement, for an answer later revalidations may get without the router. */
  remember?: (etag: string, headers: readonly (readonly [string, string])[]) => void;
}

/**
 * Sends the bytes with their ETag (strong unless given a weak one), or 304 when If-None-Match names it. Not async:
 * when the measurement is known at once (anonymous reads) the answer goes out without a
 * promise turn, which is a measurable share of a 304.
 */
function sendTagged(request: FastifyRequest, reply: FastifyReply, rep: Representation): FastifyReply | Promise<FastifyReply> {
  const etag = rep.etag ?? `"${sha256Hex(typeof rep.bytes === 'function' ? rep.bytes() : rep.bytes)}"`;
  const notModified = ifNoneMatchMatches(request.headers['if-none-match'], etag);
  const headers: [string, string][] = [['etag', etag], ['cache-control', rep.cacheControl], ['vary', 'Origin']];
  if (rep.snapshotId) headers.push([SNAPSHOT_HEADER, rep.snapshotId]);
  if (rep.headers) headers.push(...Object.entries(rep.headers));
  for (const [name, value] of headers) reply.header(name, value);
  rep.remember?.(etag, headers);
  const finish = (measurement?: string) => {
    if (measurement !== undefined) reply.header(MEASUREMENT_HEADER, measurement);
    reply.type(rep.type);
    if (notModified) return reply.code(304).send();
    return reply.code(200).send(typeof rep.bytes === 'function' ? rep.bytes() : rep.bytes);
  };
  const measured = rep.measure?.(notModified);
  return typeof measured === 'object' ? measured.then(finish) : finish(measured);
}

/** The encoded bytes of a body that never changes, with their strong tag. */
function fixedBody(body: unknown): { bytes: Buffer; etag: string } {
  const bytes = encodeDataBody(body);
  return { bytes, etag: `"${sha256Hex(bytes)}"` };
}

export const MEASUREMENT_HEADER = 'x-financial-evidence-measurement';

/**
 * How a pinned answer is recorded for revalidation ahead of the router. Made here, apart
 * from the route handler: a closure keeps its whole enclosing scope (V8 shares one context
 * per scope), so one made in the handler kept the request and the answer's bytes alive as
 * long as the record (up to 4,096 URLs): paging a large history pinned grew the process by
 * every page read, never freed.
 */
function rememberPinned(app: FastifyInstance, deps: AppDeps, url: string, measurement: AnswerMeasurement, type: string, standsUntilUs: number) {
  return (etag: string, headers: readonly (readonly [string, string])[]) => app.revalidation.remember(url, {
    etag,
    headers,
    revalidate: () => {
      if (Number(deps.clock()) >= standsUntilUs) return undefined;
      const measured = recordDataReadNow(deps, anonymousRevalidation(measurement));
      return measured === undefined ? undefined : [MEASUREMENT_HEADER, measured, 'content-type', type];
    },
  });
}

/**
 * Usage measurement of one query answer (upstream §2.2). It never fails the read: a key
 * that is not usable only says `invalid_measurement_key`, a store that cannot record says
 * `unavailable`.
 */
function measureQuery(deps: AppDeps, request: FastifyRequest, answer: AnswerMeasurement, notModified: boolean): string | Promise<string> {
  if (request.method === 'HEAD') return 'not_eligible';
  const app = { storage: deps.storage, clock: deps.clock };
  if (request.headers.authorization === undefined) {
    const event = { caller: { kind: 'anonymous' as const }, excluded: hasDataExclusionHeader(request.headers), eligible: answer.eligible, notModified, digest: answer.digest };
    const now = recordDataReadNow(app, event);
    if (now !== undefined) return now;
  }
  return measureQueryFully(app, request, answer, notModified);
}

/** What measureQuery records for a 304 to a client revalidation.ts lets through: anonymous, no traffic-class header. */
function anonymousRevalidation(answer: AnswerMeasurement): DataReadEvent {
  return { caller: { kind: 'anonymous' }, excluded: false, eligible: answer.eligible, notModified: true, digest: answer.digest };
}

async function measureQueryFully(app: ApplicationContext, request: FastifyRequest, answer: AnswerMeasurement, notModified: boolean): Promise<string> {
  let caller;
  try {
    caller = await resolveCaller(app, request.headers.authorization);
  } catch (error) {
    if (isAppError(error) && error.status === 401) return 'invalid_measurement_key';
    request.log.warn({ err: error }, 'measurement key could not be checked; the read is served without measurement');
    return 'unavailable';
  }
  try {
    return await recordDataRead(app, {
      caller,
      excluded: hasDataExclusionHeader(request.headers),
      eligible: answer.eligible,
      notModified,
      digest: answer.digest,
    });
  } catch (error) {
    request.log.warn({ err: error }, 'usage measurement failed; the read is served without it');
    return 'unavailable';
  }
}

const JSON_TYPE = 'application/json; charset=utf-8';

export const dataPlugin: FastifyPluginAsync<GroupPluginOptions> = async (app, options) => {
  const { deps } = options;
  const ctx = dataContextFor(deps);

  // CORS for this group's routes only, for the origins group B allows (OpenBB Workspace among them).
  const preflight = useCors(app, DATA_CORS);
  // Anonymous query counts are buffered (applications/anonymous-counts.ts): write them on close.
  flushUsageOnClose(app, deps);
  // Callback form: an async hook costs every answer a promise and a microtask turn.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    done(null, payload);
  });

  // The release identity and the OpenBB manifests never change while the process runs:
  // encoded and tagged once.
  const releaseBody = fixedBody(release(ctx));
  serveRoute(app, options, DataRelease, async (request, reply) => sendTagged(request, reply, { ...releaseBody, type: JSON_TYPE, cacheControl: REVALIDATE }));

  serveRoute(app, options, DataDatasets, async (request, reply) =>
    sendTagged(request, reply, { bytes: encodeDataBody(await listDatasets(ctx)), type: JSON_TYPE, cacheControl: REVALIDATE }));

  serveRoute(app, options, DataSources, async (request, reply) => {
    const result = await listSources(ctx);
    // The current source_health table: its copies' ages change with every answer.
    return sendTagged(request, reply, { bytes: encodeDataBody(result), etag: liveTagOf(result), type: JSON_TYPE, cacheControl: NO_STORE, snapshotId: result.snapshot_id });
  });

  serveRoute(app, options, DataQuery, async (request, reply) => {
    const params = validateQuery(request.query);
    const answer = await answerQuery(ctx, params);
    // An answer from a chosen snapshot never changes, so caches may keep it and revalidate.
    const cacheControl = answer.pinned ? REVALIDATE : NO_STORE;
    const measure = (notModified: boolean) => measureQuery(deps, request, answer.measurement, notModified);
    const csv = params.format === 'csv';
    const type = csv ? 'text/csv; charset=utf-8' : JSON_TYPE;
    const standsUntilUs = answer.standsUntilUs;
    const remember = standsUntilUs === undefined || request.method !== 'GET'
      ? undefined
      : rememberPinned(app, deps, request.raw.url ?? '', answer.measurement, type, standsUntilUs);
    const tagged = { bytes: answer.bytes, etag: answer.etag, cacheControl, snapshotId: answer.snapshotId, measure, type, remember };
    if (csv) return sendTagged(request, reply, { ...tagged, headers: { 'content-disposition': `attachment; filename="${params.dataset}.csv"` } });
    return sendTagged(request, reply, tagged);
  });

  serveRoute(app, options, DataSnapshots, async (request, reply) =>
    sendTagged(request, reply, { bytes: encodeDataBody(await listSnapshots(ctx, request.query)), type: JSON_TYPE, cacheControl: REVALIDATE }));

  const widgets = fixedBody(openbbWidgets());
  const apps = fixedBody(openbbApps());
  serveRoute(app, options, OpenBBWidgets, async (request, reply) => sendTagged(request, reply, { ...widgets, type: JSON_TYPE, cacheControl: REVALIDATE }));
  serveRoute(app, options, OpenBBApps, async (request, reply) => sendTagged(request, reply, { ...apps, type: JSON_TYPE, cacheControl: REVALIDATE }));

  for (const route of DATA_ROUTES) app.options(route.url, { schema: { hide: true } }, preflight(route));
};
