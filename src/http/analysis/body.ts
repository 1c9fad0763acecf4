// Receiving a group A request body as bytes. Fastify's buffer parser keeps every socket
// chunk and joins them at the end (Buffer.concat): twice the body in memory for a moment,
// and a 7 MB copy on the event loop. When the request states its Content-Length, the
// chunks are copied as they arrive into one buffer of exactly that size, which owns its
// whole ArrayBuffer, so the pool can transfer it to the worker instead of copying it
// again (src/http/analysis/offload.ts).
//
// The refusals are Fastify's own, in the same cases and order as its buffer parser
// (content-type-parser.js rawBody in Fastify 5): a declared or received length over the
// route's body limit, a stream error, a received length that differs from the declared
// one. Without Content-Length (chunked) or behind a preParsing stream, chunks are joined
// at the end, into a buffer of its own too.
//
// Each socket chunk is Node's own copy (a preParsing stream's chunks may not be), used by
// nobody once copied here: its memory is freed at once (releaseNow) rather than left for
// the collector, which under concurrent uploads let ~30 MiB of dead chunks pile up on the
// event loop.
import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';
import fastify from 'fastify';
import { releaseNow } from '../../platform/release.js';

const { FST_ERR_CTP_BODY_TOO_LARGE, FST_ERR_CTP_INVALID_CONTENT_LENGTH } = fastify.errorCodes;

type Done = (error: Error | null, body?: Buffer) => void;

/** Reads the whole body of `request` from `payload` into one Buffer, honouring `limit`. */
export function receiveBody(request: FastifyRequest, payload: IncomingMessage, limit: number, done: Done): void {
  const contentLength = Number(request.headers['content-length']);
  if (contentLength > limit) {
    done(new FST_ERR_CTP_BODY_TOO_LARGE());
    return;
  }
  // A preParsing stream (none today) may change the length: then Content-Length is not the body's.
  const fromSocket = payload === request.raw;
  const direct = fromSocket && Number.isInteger(contentLength) && contentLength >= 0;
  // Not from Buffer's shared pool: this buffer alone owns its ArrayBuffer.
  const whole = direct ? Buffer.allocUnsafeSlow(contentLength) : undefined;
  const chunks: Buffer[] = [];
  let received = 0;

  const detach = () => {
    payload.removeListener('data', onData);
    payload.removeListener('end', onEnd);
    payload.removeListener('error', onEnd);
  };
  function onData(chunk: Buffer) {
    const encoded = (payload as { receivedEncodedLength?: number }).receivedEncodedLength ?? 0;
    if (received + chunk.length > limit || encoded > limit) {
      detach();
      done(new FST_ERR_CTP_BODY_TOO_LARGE());
      return;
    }
    const length = chunk.length;
    if (whole && received + length <= whole.length) {
      chunk.copy(whole, received);
      if (fromSocket) releaseNow(chunk);
    } else {
      chunks.push(chunk);
    }
    received += length;
  }
  function onEnd(error?: Error & { statusCode?: number }) {
    detach();
    if (error != null) {
      if (!(typeof error.statusCode === 'number' && error.statusCode >= 400)) error.statusCode = 400;
      done(error);
      return;
    }
    const receivedLength = (payload as { receivedEncodedLength?: number }).receivedEncodedLength || received;
    if (!Number.isNaN(contentLength) && receivedLength !== contentLength) {
      done(new FST_ERR_CTP_INVALID_CONTENT_LENGTH());
      return;
    }
    done(null, whole ?? joined(chunks, received, fromSocket));
  }
  payload.on('data', onData);
  payload.on('end', onEnd);
  payload.on('error', onEnd);
  payload.resume();
}

/** The chunks in one buffer that owns its ArrayBuffer (Buffer.concat may use the shared pool). */
function joined(chunks: Buffer[], length: number, release: boolean): Buffer {
  const out = Buffer.allocUnsafeSlow(length);
  let at = 0;
  for (const chunk of chunks) {
    at += chunk.copy(out, at);
    if (release) releaseNow(chunk);
  }
  return out;
}
