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
import { AppError } from '../../core/errors.js';
import { useCors, type CorsPolicy } from '../cors.js';
import { formatInstantOffset, type Instant } from '../../core/time.js';
import { findPacket } from '../../funding/archive.js';
import { changesBody, requirePacketId } from '../../funding/changes.js';
import { historyBody } from '../../funding/history.js';
import { currentEvidence, fromStorage, judgeCurrent, latestBody, verifiedOr503, type EncodedBody, type ReadConfig } from '../../funding/latest.js';
import { PACKET_FILES, type PacketFile } from '../../funding/packet.js';
import { FundingReadErrors, sinceRequired } from '../../funding/read-errors.js';
import { FUNDING_SOURCES_PAGE } from '../../funding/sources-page.js';
import type { VerifiedPacket } from '../../funding/verify.js';
import { verifyReadPacket } from '../../funding/verify-read.js';
import { freshStoredCurrent, storedCurrent } from '../../funding/current-cache.js';
import { ifNoneMatchMatches } from '../conditional.js';
import { servedAt } from '../contract.js';
import { serveRoute, type GroupPluginOptions, type RouteExtras } from '../route.js';
import { FundingChanges, FundingHistory, FundingLatest, FundingOpenBBApps, FundingOpenBBWidgets, FundingPacketFile, FundingSourceTerms } from '../routes/funding.js';
import { fundingApps, fundingWidgets } from '../../funding/openbb.js';
import { anonymousReader, countAnonymousRead, flushUsageOnClose, identifyReader, recordReadUsage, recordReadUsageNow, USAGE_RECORDED_HEADER, type ReaderIdentity } from '../usage.js';
import { noStoreByDefault } from '../cache-default.js';

const CORS: CorsPolicy = {
  methods: ['GET', 'POST', 'DELETE'],
  allowMethods: 'GET, POST, DELETE',
  requestHeaders: ['Content-Type', 'Authorization', 'If-None-Match'],
  exposed: 'X-Packet-SHA256, ETag, X-Evidence-Checked-At, X-Usage-Recorded',
  maxAgeSeconds: '600',
  // The status this group has always answered (its wire is kept as it is).
  preflightStatus: 204,
};
/** The operations browsers may read cross-origin (each answers its preflight). */
const CORS_READABLE = [FundingLatest, FundingChanges, FundingHistory, FundingPacketFile];

const READ_CACHE_CONTROL = 'private, no-cache, must-revalidate, no-transform';
const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

const CONTENT_TYPES: Record<PacketFile, string> = {
  'manifest.json': 'application/json',
  'review.json': 'application/json',
  'observations.csv': 'text/csv; charset=utf-8',
};

interface ConditionalSend {
  encoded: EncodedBody;
  now: Instant;
  /** Measured as a latest/changes read (history only identifies). */
  usage?: { identity: ReaderIdentity; packetId: string };
  /** Given the fixed headers, for an answer later revalidations may get without the router. */
  remember?: (headers: readonly (readonly [string, string])[]) => void;
}

/** The headers every latest/changes answer starts with: fixed for one body. */
function readHeaders(etag: string): [string, string][] {
  return [['etag', etag], ['cache-control', READ_CACHE_CONTROL], ['vary', 'Authorization, Origin']];
}

export const fundingPlugin: FastifyPluginAsync<GroupPluginOptions> = async (app, options) => {
  const { deps, mountedAt } = options;
  flushUsageOnClose(app, deps);
  const { config, storage } = deps;
  const readConfig: ReadConfig = config;
  const sample = config.mode === 'sample';
  const licenseLink = `<${mountedAt}${FundingSourceTerms.url}>; rel="license"`;

  // CORS for this group's routes only (a global plugin would answer other groups' preflights).
  const preflight = useCors(app, CORS);
  noStoreByDefault(app);


  // Each encoded body's bytes, made once: the current packet's are sent again and again.
  const bodyBytes = new WeakMap<EncodedBody, Buffer>();
  const bytesOf = (encoded: EncodedBody): Buffer => {
    let bytes = bodyBytes.get(encoded);
    if (bytes === undefined) bodyBytes.set(encoded, (bytes = Buffer.from(encoded.body, 'utf8')));
    return bytes;
  };

  const sendConditional = async (request: FastifyRequest, reply: FastifyReply, send: ConditionalSend) => {
    const { etag } = send.encoded;
    const notModified = ifNoneMatchMatches(request.headers['if-none-match'], etag);
    const fixed = readHeaders(etag);
    for (const [name, value] of fixed) reply.header(name, value);
    reply.header('x-evidence-checked-at', formatInstantOffset(send.now));
    if (send.usage) {
      const outcome = notModified ? 'not_modified' : 'data_response';
      // Anonymous and HEAD reads are measured in memory, without a wait.
      if (recordReadUsageNow(deps, reply, send.usage.identity, outcome) === undefined) {
        await recordReadUsage(deps, reply, send.usage.identity, outcome, send.usage.packetId);
      }
    } else {
      reply.header('x-usage-recorded', 'false');
    }
    send.remember?.(fixed);
    // Bytes, so the type stays the bare `application/json` of spec §5.2 (Fastify appends a
    // charset to the type of a string body), on the 200 as on the 304.
    reply.type('application/json');
    return notModified ? reply.code(304).send() : reply.code(200).send(bytesOf(send.encoded));
  };

  /**
   * What a read of the current packet gets ahead of the router (revalidation.ts), as a 304
   * to a revalidation or as the whole 200: the route's own checks (the cached state checked
   * within its bound, the readiness judgement at this instant, the same body tag), then the
   * anonymous count and the headers the route writes after its fixed ones.
   */
  const currentNow = (etag: string): Instant | undefined => {
    const now = deps.clock();
    const stored = freshStoredCurrent(storage, readConfig.mode, now);
    if (stored === undefined) return undefined;
    let packet: VerifiedPacket;
    try {
      packet = judgeCurrent(stored, readConfig, now).packet;
    } catch {
      return undefined;
    }
    return latestBody(packet, sample).etag === etag ? now : undefined;
  };
  const restHeaders = (etag: string, outcome: 'not_modified' | 'data_response') => {
    const now = currentNow(etag);
    if (now === undefined) return undefined;
    const recorded = countAnonymousRead(deps, false, outcome);
    return ['x-evidence-checked-at', formatInstantOffset(now), USAGE_RECORDED_HEADER, recorded, 'content-type', 'application/json'];
  };
  const rememberLatest = (url: string, encoded: EncodedBody) => (headers: readonly (readonly [string, string])[]) => {
    const body = bytesOf(encoded);
    app.revalidation.remember(url, {
      etag: encoded.etag,
      headers,
      revalidate: () => restHeaders(encoded.etag, 'not_modified'),
      full: { body, serve: () => restHeaders(encoded.etag, 'data_response') },
    });
  };

  serveRoute(app, options, FundingLatest, async (request, reply) => {
    const now = deps.clock();
    // The common read (anonymous, packet checked within the last second) needs no wait.
    const identity = anonymousReader(request) ?? (await identifyReader(deps, request));
    const { packet } = await currentEvidence(storage, readConfig, now);
    const encoded = latestBody(packet, sample);
    const remember = request.method === 'GET' ? rememberLatest(request.raw.url ?? '', encoded) : undefined;
    return sendConditional(request, reply, { encoded, now, usage: { identity, packetId: packet.packetId }, remember });
  });

  // A repeated query parameter counts with its last value, as the upstream (FastAPI) reads
  // a scalar parameter; the schema would otherwise refuse the list Fastify parsed it into.
  // These parameters are all scalars. Latest takes none, so its reads skip this hook.
  const lastValues: RouteExtras = {
    preValidation: (request, _reply, done) => {
      const query = request.query as Record<string, unknown>;
      for (const [name, value] of Object.entries(query)) if (Array.isArray(value)) query[name] = value[value.length - 1];
      done();
    },
  };

  serveRoute(app, options, FundingChanges, async (request, reply) => {
    const { since, until } = request.query;
    if (since === undefined) {
      throw sinceRequired();
    }
    const now = deps.clock();
    const identity = await identifyReader(deps, request);
    const { encoded, latest } = await changesBody(storage, readConfig, now, { since, until });
    return sendConditional(request, reply, { encoded, now, usage: { identity, packetId: latest.packetId } });
  }, lastValues);

  serveRoute(app, options, FundingHistory, async (request, reply) => {
    const { as_of: asOf, before, limit } = request.query;
    const now = deps.clock();
    await identifyReader(deps, request);
    const encoded = await historyBody(storage, readConfig, now, { asOf, before, limit });
    return sendConditional(request, reply, { encoded, now });
  }, lastValues);

  // The current packet is served from memory (verified when loaded, re-checked within the
  // cache's bounds); any other packet is read and verified from the store on each request.
  const verifiedPacketFile = async (packetId: string): Promise<VerifiedPacket> => {
    const current = (await fromStorage(() => storedCurrent(storage, config.mode, deps.clock()))).packet;
    if (current?.kind === 'verified' && current.packet.packetId === packetId) return current.packet;
    if (current?.kind === 'invalid' && current.error.packetId === packetId) return verifiedOr503(readConfig, () => { throw current.error; });
    const row = await fromStorage(() => findPacket(storage.db, packetId));
    if (!row || row.mode !== config.mode) throw new AppError(FundingReadErrors.packet_not_found, 'no packet with this id is in this archive');
    return verifiedOr503(readConfig, () => verifyReadPacket(storage, row));
  };

  serveRoute(app, options, FundingPacketFile, async (request, reply) => {
    const { packet_id: packetId, file } = request.params;
    if (!isPacketFile(file)) {
      throw new AppError(FundingReadErrors.packet_file_not_found, 'a packet has only manifest.json, review.json and observations.csv');
    }
    requirePacketId(packetId, 'packet_id');
    const packet = await verifiedPacketFile(packetId);
    const bytes = packet.bytes[file];
    const digest = file === 'manifest.json' ? packet.manifestSha256 : file === 'review.json' ? packet.reviewSha256 : packet.csvSha256;
    const etag = `"${digest}"`;
    reply.header('etag', etag);
    reply.header('x-packet-sha256', digest);
    reply.header('cache-control', IMMUTABLE_CACHE_CONTROL);
    reply.header('vary', 'Origin');
    reply.header('content-disposition', `attachment; filename="${file}"`);
    reply.header('link', licenseLink);
    reply.type(CONTENT_TYPES[file]);
    if (ifNoneMatchMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
    return reply.code(200).send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  });

  serveRoute(app, options, FundingSourceTerms, async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=3600');
    reply.type('text/plain; charset=utf-8');
    return reply.send(FUNDING_SOURCES_PAGE);
  });

  // OpenBB Workspace reads its manifests from the browser, like the packet it then shows.
  const manifests = [
    { contract: FundingOpenBBWidgets, bytes: Buffer.from(JSON.stringify(fundingWidgets())) },
    { contract: FundingOpenBBApps, bytes: Buffer.from(JSON.stringify(fundingApps())) },
  ];
  for (const { contract, bytes } of manifests) {
    serveRoute(app, options, contract, async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=3600');
      // A shared cache must keep one copy per Origin: the CORS headers differ between them.
      reply.header('vary', 'Origin');
      reply.type('application/json');
      return reply.send(bytes);
    });
  }

  for (const route of [...CORS_READABLE, ...manifests.map((m) => m.contract)]) {
    if (servedAt(route, mountedAt)) app.options(route.url, { schema: { hide: true } }, preflight(route));
  }
};

function isPacketFile(name: string): name is PacketFile {
  return (PACKET_FILES as readonly string[]).includes(name);
}
