// Group C routes of issue 12: the funding review from our own archive and its CSV, the
// agent routes, and the research kit download. Handlers are thin: validation and
// composition live in src/data; here each body is encoded as the data group encodes
// (Python's number forms, docs/DECISIONS.md), gets its strong ETag (304 on a match) and
// the headers the upstream documents.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { sha256Hex } from '../../core/hash.js';
import { agentQuery, agentReview } from '../../data/agent.js';
import { encodeDataBody } from '../../data/encode.js';
import { liveTagOf } from '../../data/live-tag.js';
import { composeFundingReview } from '../../data/funding-review.js';
import { researchKitZip } from '../../data/kit/bundle.js';
import { ifNoneMatchMatches } from '../conditional.js';
import { dataContextFor } from '../data-context.js';
import { errorBody } from '../errors.js';
import { serveRoute, type GroupPluginOptions } from '../route.js';
import { AgentQuery, AgentReview, DATA_REVIEW_ROUTES, FundingReview, FundingReviewCsv, ResearchKitZip } from '../routes/data-review.js';
import { useCors } from '../cors.js';
import { DATA_CORS } from './data.js';

/** Answers change with every capture and every source refresh: caches must ask again. */
const REVALIDATE = 'no-cache';

/** `etag` is given for an answer with live ages (a weak tag); otherwise the strong tag of the bytes. */
function sendTagged(request: FastifyRequest, reply: FastifyReply, bytes: string | Uint8Array, type: string, cacheControl = REVALIDATE, etag = `"${sha256Hex(bytes)}"`): FastifyReply {
  reply.header('etag', etag);
  reply.header('cache-control', cacheControl);
  reply.type(type);
  if (ifNoneMatchMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
  // A view, not a copy: answers pipelined to a client that reads slowly share one kit.
  return reply.code(200).send(typeof bytes === 'string' ? Buffer.from(bytes) : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
}

/**
 * An agent answer from the current snapshots reports its copies' ages now: a weak tag. One
 * from chosen snapshots reports fixed ages: its bytes' strong tag (undefined here).
 */
function tagOfAgentAnswer(query: { snapshot?: string; as_retrieved_at?: string }, body: unknown): string | undefined {
  return query.snapshot === undefined && query.as_retrieved_at === undefined ? liveTagOf(body) : undefined;
}

export const dataReviewPlugin: FastifyPluginAsync<GroupPluginOptions> = async (app, options) => {
  const { deps, mountedAt } = options;
  const sample = deps.config.mode === 'sample';
  const ctx = dataContextFor(deps);

  // The review routes are read from the same browsers (OpenBB Workspace) as the other data routes.
  const preflight = useCors(app, DATA_CORS);
  for (const route of DATA_REVIEW_ROUTES) app.options(route.url, { schema: { hide: true } }, preflight(route));

  serveRoute(app, options, FundingReview, async (request, reply) => {
    const { body } = await composeFundingReview(deps);
    // The review reports the capture's age at answer time.
    return sendTagged(request, reply, encodeDataBody(body), 'application/json; charset=utf-8', REVALIDATE, liveTagOf(body));
  });

  serveRoute(app, options, FundingReviewCsv, async (request, reply) => {
    const outcome = await composeFundingReview(deps);
    const { body, csv, refusal } = outcome;
    reply.header('x-financial-evidence-capture', body.capture_id ?? 'none');
    reply.header('x-data-readiness', body.data_readiness);
    reply.header('x-release-identity', body.release_identity);
    reply.header('x-funding-review-scope', body.review_scope);
    reply.header('x-funding-review-as-of', body.review_asof ?? 'unknown');
    reply.header('cache-control', 'no-store');
    if (csv === null || refusal !== null) {
      const def = refusal!.def;
      const error = {
        status: 'capture_unavailable_or_stale',
        review: `${mountedAt}${FundingReview.url}`,
        ...errorBody('evidence', { code: def.code, message: `the funding review is not ready (${def.meaning}); the review says why` }, sample),
      };
      reply.header('retry-after', String(refusal!.retryAfter));
      return reply.code(def.status).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(error));
    }
    reply.header('content-disposition', 'attachment; filename="funding-observations.csv"');
    return sendTagged(request, reply, csv.bytes, 'text/csv; charset=utf-8', 'no-store');
  });

  serveRoute(app, options, AgentQuery, async (request, reply) => {
    const body = await agentQuery(ctx, request.query);
    return sendTagged(request, reply, encodeDataBody(body), 'application/json; charset=utf-8', REVALIDATE, tagOfAgentAnswer(request.query, body));
  });

  serveRoute(app, options, AgentReview, async (request, reply) => {
    const body = await agentReview(ctx, request.query);
    return sendTagged(request, reply, encodeDataBody(body), 'application/json; charset=utf-8', REVALIDATE, tagOfAgentAnswer(request.query, body));
  });

  serveRoute(app, options, ResearchKitZip, async (request, reply) => {
    const zip = researchKitZip(app.swagger());
    reply.header('content-disposition', 'attachment; filename="evidence-desk-research-kit.zip"');
    return sendTagged(request, reply, zip, 'application/zip', 'no-cache');
  });
};
