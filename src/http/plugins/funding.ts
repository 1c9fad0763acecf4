// Funding evidence read routes (group B): latest, changes, history and the immutable
// packet downloads. Handlers are thin: they run the documented check order, call the
// domain modules in src/funding, and send pre-encoded canonical bytes (Fastify never
// re-serialises them, so the ETag is the SHA-256 of exactly what leaves).
//
// Check order for latest/changes: (query bounds: shell) → since present (422) →
// credential (401/503) → id syntax (400) → live readiness incl. artifact hashes (503) →
// until (409) → since in archive (404) → forward (409) → comparison (503) → body and
// ETag → only then If-None-Match (304). Nothing that fails a check can reach a 304.

import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type TSchema } from 'typebox';
import { AppError } from '../../core/errors.js';
import { formatInstantOffset, type Instant } from '../../core/time.js';
import { sha256Hex } from '../../core/hash.js';
import { findPacket } from '../../funding/archive.js';
import { changesBody, requirePacketId } from '../../funding/changes.js';
import { HISTORY_MAX_LIMIT, historyBody } from '../../funding/history.js';
import { currentEvidence, fromStorage, latestBody, verifiedOr503, type EncodedBody, type ReadConfig } from '../../funding/latest.js';
import { PACKET_FILES, type PacketFile } from '../../funding/packet.js';
import { FundingReadErrors } from '../../funding/read-errors.js';
import { FUNDING_SOURCES_PAGE, FUNDING_SOURCES_PATH } from '../../funding/sources-page.js';
import { verifyStoredPacket } from '../../funding/verify.js';
import type { GroupPluginOptions } from '../deps.js';
import { ifNoneMatchMatches } from '../conditional.js';
import { identifyReader, recordReadUsage, type ReaderIdentity } from '../usage.js';

export const CORS_ALLOWED_ORIGINS: readonly string[] = ['https://beepboop2025.github.io', 'https://pro.openbb.co', 'https://my.openbb.co'];
const CORS_METHODS = ['GET', 'POST', 'DELETE'];
const CORS_REQUEST_HEADERS = ['Content-Type', 'Authorization', 'If-None-Match'];
const CORS_EXPOSED = 'X-Packet-SHA256, ETag, X-Evidence-Checked-At, X-Usage-Recorded';
const CORS_MAX_AGE = '600';

const READ_CACHE_CONTROL = 'private, no-cache, must-revalidate, no-transform';
const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

const CONTENT_TYPES: Record<PacketFile, string> = {
  'manifest.json': 'application/json',
  'review.json': 'application/json',
  'observations.csv': 'text/csv; charset=utf-8',
};

// ---------------------------------------------------------------------------------------
// OpenAPI schemas (documentation of the canonical bodies; the bodies are sent as bytes)

const Timestamp = Type.String({ description: 'ISO 8601, microseconds, +00:00' });
const IsoDate = Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' });
const Hex64 = Type.String({ pattern: '^[0-9a-f]{64}$' });
const PacketId = Type.String({ pattern: '^[0-9]{8}T[0-9]{6}\\.[0-9]{6}Z-[0-9a-f]{32}$' });

const Row = Type.Object({
  metric_id: Type.String(),
  value: Type.Number(),
  unit: Type.Union([Type.Literal('%'), Type.Literal('$B')]),
  observation_date: IsoDate,
  source: Type.String(),
  cadence: Type.Union([Type.Literal('daily'), Type.Literal('weekly')]),
  publisher_freshness: Type.Literal('directly_verified'),
  value_state: Type.Literal('available'),
  evaluated_at: Timestamp,
  review_status: Type.Literal('checks_passed'),
  review_asof: IsoDate,
  review_scope: Type.String(),
  latest_per_instrument: Type.Literal(false),
  canonical_latest_asof: IsoDate,
  newer_observation_available: Type.Boolean(),
});

const Artifacts = Type.Object({ 'observations.csv': Hex64, 'review.json': Hex64 });
const SampleFlag = Type.Optional(Type.Literal(true, { description: 'Present (true) only in sample mode: made-up documents.' }));

const LatestResponse = Type.Object({
  schema: Type.Literal('financial-evidence.funding.v1'),
  dataset: Type.Literal('usd-funding'),
  ready: Type.Literal(true),
  packet_id: PacketId,
  source_captured_at: Timestamp,
  archived_at: Timestamp,
  review_asof: Type.Union([IsoDate, Type.Null()]),
  review_scope: Type.String(),
  latest_per_instrument: Type.Literal(false),
  value_basis: Type.String(),
  knowledge_time_basis: Type.String(),
  observations: Type.Array(Row, { minItems: 9, maxItems: 9 }),
  manifest_sha256: Hex64,
  artifacts: Artifacts,
  links: Type.Object({ 'manifest.json': Type.String(), 'observations.csv': Type.String(), 'review.json': Type.String() }),
  sample: SampleFlag,
});

const ChangeSide = Type.Object({
  observation_date: IsoDate,
  source: Type.String(),
  unit: Type.String(),
  value: Type.Number(),
  value_state: Type.String(),
});

const ChangesResponse = Type.Object({
  schema: Type.Literal('financial-evidence.funding-changes.v1'),
  before: PacketId,
  after: PacketId,
  changes: Type.Array(Type.Object({
    metric_id: Type.String(),
    kind: Type.Union([Type.Literal('new_observation_date'), Type.Literal('same_date_observation_changed')]),
    before: ChangeSide,
    after: ChangeSide,
  })),
  packet_id: PacketId,
  ready: Type.Literal(true),
  review_asof: Type.Union([IsoDate, Type.Null()]),
  scope: Type.Literal('captured_differences_not_confirmed_publisher_revision_events'),
  sample: SampleFlag,
});

const HistoryResponse = Type.Object({
  schema: Type.Literal('financial-evidence.forward-coverage.v1'),
  as_of: Timestamp,
  knowledge_time_basis: Type.String(),
  scope: Type.Literal('observed_packets_only_not_complete_publisher_vintages'),
  first_archived_at: Type.Union([Timestamp, Type.Null()]),
  last_archived_at: Type.Union([Timestamp, Type.Null()]),
  packet_count: Type.Integer(),
  packets: Type.Array(Type.Object({
    packet_id: PacketId,
    archived_at: Timestamp,
    source_captured_at: Timestamp,
    review_asof: Type.Union([IsoDate, Type.Null()]),
    ready_at_capture: Type.Boolean(),
    source_manifest_sha256: Hex64,
    manifest_sha256: Hex64,
  })),
  truncated: Type.Boolean(),
  limit: Type.Integer(),
  next_before: Type.Union([PacketId, Type.Null()], { description: 'Pass as before= to read the previous page.' }),
  latest_attempt: Type.Union([
    Type.Object({
      recorded_at: Timestamp,
      packet_id: Type.Union([PacketId, Type.Null()]),
      error: Type.Union([Type.String(), Type.Null()]),
      outcome: Type.String(),
    }),
    Type.Null(),
  ]),
  sample: SampleFlag,
});

const Problem = Type.Object({ detail: Type.String(), code: Type.String(), path: Type.Optional(Type.String()), sample: SampleFlag });
const NotModified = Type.Null({ description: 'Not Modified: the If-None-Match tag names this representation.' });

function responses(ok: TSchema, statuses: number[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = { 200: ok };
  for (const status of statuses) out[status] = status === 304 ? NotModified : Problem;
  return out;
}

// ---------------------------------------------------------------------------------------

function allowedOrigin(request: FastifyRequest): string | undefined {
  const origin = request.headers.origin;
  return typeof origin === 'string' && CORS_ALLOWED_ORIGINS.includes(origin) ? origin : undefined;
}

interface ConditionalSend {
  encoded: EncodedBody;
  now: Instant;
  /** Measured as a latest/changes read (history only identifies). */
  usage?: { identity: ReaderIdentity; packetId: string };
}

export const fundingPlugin: FastifyPluginAsync<GroupPluginOptions> = async (app, { deps, hideFromDocs, mountedAt }) => {
  const { config, storage } = deps;
  const readConfig: ReadConfig = config;
  const sample = config.mode === 'sample';
  const licenseLink = `<${mountedAt}${FUNDING_SOURCES_PATH}>; rel="license"`;

  // CORS for this group's routes only (a global plugin would answer other groups' preflights).
  app.addHook('onRequest', async (request, reply) => {
    const origin = allowedOrigin(request);
    if (origin) {
      reply.header('access-control-allow-origin', origin);
      reply.header('access-control-expose-headers', CORS_EXPOSED);
    }
  });
  // Errors and anything else without its own policy must not be stored by caches.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store, no-transform');
    return payload;
  });

  const preflight = async (request: FastifyRequest, reply: FastifyReply) => {
    const origin = allowedOrigin(request);
    const method = request.headers['access-control-request-method'];
    const asked = String(request.headers['access-control-request-headers'] ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter((h) => h !== '');
    const allowedHeaders = CORS_REQUEST_HEADERS.map((h) => h.toLowerCase());
    reply.header('vary', 'Origin');
    if (!origin || typeof method !== 'string' || !CORS_METHODS.includes(method) || !asked.every((h) => allowedHeaders.includes(h))) {
      throw new AppError(FundingReadErrors.cors_preflight_refused, 'this cross-origin request is not allowed (origin, method or headers)');
    }
    reply.header('access-control-allow-methods', CORS_METHODS.join(', '));
    reply.header('access-control-allow-headers', CORS_REQUEST_HEADERS.join(', '));
    reply.header('access-control-max-age', CORS_MAX_AGE);
    return reply.code(204).send();
  };

  const sendConditional = async (request: FastifyRequest, reply: FastifyReply, send: ConditionalSend) => {
    const { body, etag } = send.encoded;
    const notModified = ifNoneMatchMatches(request.headers['if-none-match'], etag);
    reply.header('etag', etag);
    reply.header('cache-control', READ_CACHE_CONTROL);
    reply.header('vary', 'Authorization, Origin');
    reply.header('x-evidence-checked-at', formatInstantOffset(send.now));
    if (send.usage) {
      await recordReadUsage(deps, reply, send.usage.identity, notModified ? 'not_modified' : 'data_response', send.usage.packetId);
    } else {
      reply.header('x-usage-recorded', 'false');
    }
    reply.type('application/json');
    return notModified ? reply.code(304).send() : reply.code(200).send(body);
  };

  const tags = ['funding evidence'];

  app.get(
    '/v1/funding/latest',
    {
      schema: {
        hide: hideFromDocs,
        tags,
        operationId: 'fundingLatest',
        summary: 'The current verified funding evidence packet',
        description:
          'Served only while the newest capture attempt succeeded, is younger than the freshness limit and its stored artifacts still match their manifest; ' +
          'otherwise 503 with Retry-After and a reason code. Strong ETag (SHA-256 of the body); If-None-Match gives 304 only after every check.',
        response: responses(LatestResponse, [304, 401, 503]),
      },
    },
    async (request, reply) => {
      const now = deps.clock();
      const identity = await identifyReader(deps, request);
      const { packet } = await currentEvidence(storage, readConfig, now);
      return sendConditional(request, reply, { encoded: latestBody(packet, sample), now, usage: { identity, packetId: packet.packetId } });
    },
  );

  app.get(
    '/v1/funding/changes',
    {
      schema: {
        hide: hideFromDocs,
        tags,
        operationId: 'fundingChanges',
        summary: 'Metric-by-metric differences from an earlier packet to the current one',
        querystring: Type.Object({
          since: Type.Optional(Type.String({ description: 'Packet id the client holds (required).' })),
          until: Type.Optional(Type.String({ description: 'The latest packet id the client just saw; 409 if it is no longer the latest.' })),
        }),
        response: responses(ChangesResponse, [304, 400, 401, 404, 409, 422, 503]),
      },
    },
    async (request, reply) => {
      const query = request.query as { since?: string; until?: string };
      if (query.since === undefined) {
        throw new AppError(FundingReadErrors.since_required, 'the query parameter since (a packet id) is required', { path: '/since' });
      }
      const now = deps.clock();
      const identity = await identifyReader(deps, request);
      const { encoded, latest } = await changesBody(storage, readConfig, now, { since: query.since, until: query.until });
      return sendConditional(request, reply, { encoded, now, usage: { identity, packetId: latest.packetId } });
    },
  );

  app.get(
    '/v1/funding/history',
    {
      schema: {
        hide: hideFromDocs,
        tags,
        operationId: 'fundingHistory',
        summary: 'What this forward archive held as of a moment (pages backwards with before/limit)',
        description: 'Readable even while latest is unavailable. as_of defaults to now.',
        querystring: Type.Object({
          as_of: Type.Optional(Type.String({ description: 'ISO 8601 with a zone (Z or ±HH:MM), not in the future.' })),
          before: Type.Optional(Type.String({ description: 'Packet id: list only packets archived before it.' })),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: HISTORY_MAX_LIMIT, default: HISTORY_MAX_LIMIT })),
        }),
        response: responses(HistoryResponse, [304, 400, 401, 404, 422, 503]),
      },
    },
    async (request, reply) => {
      const query = request.query as { as_of?: string; before?: string; limit?: number };
      const now = deps.clock();
      await identifyReader(deps, request);
      const encoded = await historyBody(storage, readConfig, now, { asOf: query.as_of, before: query.before, limit: query.limit });
      return sendConditional(request, reply, { encoded, now });
    },
  );

  app.get(
    '/packets/:packet_id/:file',
    {
      schema: {
        hide: hideFromDocs,
        tags,
        operationId: 'fundingPacketFile',
        summary: 'One immutable packet file: manifest.json, review.json or observations.csv',
        description: 'Verified against the manifest on every request; cached immutably with a strong ETag.',
        params: Type.Object({ packet_id: Type.String(), file: Type.String() }),
        produces: ['application/json', 'text/csv'],
        response: { 200: Type.Unknown({ description: 'The exact stored bytes.' }), 304: NotModified, 400: Problem, 404: Problem, 503: Problem },
      },
    },
    async (request, reply) => {
      const { packet_id: packetId, file } = request.params as { packet_id: string; file: string };
      if (!(PACKET_FILES as readonly string[]).includes(file)) {
        throw new AppError(FundingReadErrors.packet_file_not_found, 'a packet has only manifest.json, review.json and observations.csv');
      }
      requirePacketId(packetId, 'packet_id');
      const row = await fromStorage(() => findPacket(storage.db, packetId));
      if (!row || row.mode !== config.mode) throw new AppError(FundingReadErrors.packet_not_found, 'no packet with this id is in this archive');
      verifiedOr503(readConfig, () => verifyStoredPacket(row));
      const name = file as PacketFile;
      const bytes = Buffer.from(name === 'manifest.json' ? row.manifest : name === 'review.json' ? row.review : row.csv);
      const digest = sha256Hex(bytes);
      const etag = `"${digest}"`;
      reply.header('etag', etag);
      reply.header('x-packet-sha256', digest);
      reply.header('cache-control', IMMUTABLE_CACHE_CONTROL);
      reply.header('vary', 'Origin');
      reply.header('content-disposition', `attachment; filename="${name}"`);
      reply.header('link', licenseLink);
      reply.type(CONTENT_TYPES[name]);
      if (ifNoneMatchMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
      return reply.code(200).send(bytes);
    },
  );

  app.get(
    FUNDING_SOURCES_PATH,
    { schema: { hide: hideFromDocs, tags, operationId: 'fundingSourceTerms', summary: 'Where the funding figures come from and whose terms apply' } },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=3600');
      reply.type('text/plain; charset=utf-8');
      return reply.send(FUNDING_SOURCES_PAGE);
    },
  );

  for (const path of ['/v1/funding/latest', '/v1/funding/changes', '/v1/funding/history', '/packets/:packet_id/:file']) {
    app.options(path, { schema: { hide: true } }, preflight);
  }
};
