// `/openapi.json`: the document is fixed once the routes are registered, so it is encoded
// once, with a strong ETag. Encoding its 447 KB for every request cost about 20 ms of the
// event loop each: 50 requests per second at most, and a single client re-reading it raised
// the funding reads' p99 fourfold (found from outside).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { stringifyKeepingSchemaFloats } from '../analysis/schemas/schema-floats.js';
import { sha256Hex } from '../core/hash.js';
import { ifNoneMatchMatches } from './conditional.js';

interface Encoded {
  bytes: Buffer;
  etag: string;
}

// Keyed by the document object Fastify's swagger plugin builds once and then returns.
const encoded = new WeakMap<object, Encoded>();

function encodedOf(document: object): Encoded {
  let known = encoded.get(document);
  if (known === undefined) {
    const bytes = Buffer.from(stringifyKeepingSchemaFloats(document), 'utf8');
    known = { bytes, etag: `"${sha256Hex(bytes)}"` };
    encoded.set(document, known);
  }
  return known;
}

/** Answers with the encoded document (`document()` is the app's `swagger()`). */
export function sendOpenApi(request: FastifyRequest, reply: FastifyReply, document: () => object): FastifyReply {
  const { bytes, etag } = encodedOf(document());
  reply.header('etag', etag);
  // Group A's copy keeps the group's `no-store`; elsewhere clients may keep it and ask again.
  if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-cache');
  if (ifNoneMatchMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(bytes);
}
