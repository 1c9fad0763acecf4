// Large request bodies as one buffer that owns its memory, received without a final copy.
// Fastify's `parseAs: 'buffer'` keeps every chunk and joins them with Buffer.concat when
// the body ends: for a 7 MB analysis request that is one copy of the whole body, holding
// the event loop for tens of milliseconds under load. Here, when Content-Length is known,
// the body is written chunk by chunk into one buffer of exactly that size (the copying is
// spread over the chunks as they arrive), and that buffer owns its whole ArrayBuffer, so
// it can be moved to a worker thread without another copy (platform/transfer.ts).
//
// The refusals are Fastify's own, under the same conditions (its rawBody reader): a
// declared or received length over the route's body limit, a stream error, a received
// length that differs from Content-Length. Without Content-Length (chunked) the chunks
// are joined as Fastify does.
import type { FastifyRequest } from 'fastify';
import { errorCodes } from 'fastify';

type Done = (error: Error | null, body?: Buffer) => void;

/**
 * A Fastify content-type parser (no `parseAs`) delivering the body as a Buffer, refused
 * exactly as `parseAs: 'buffer'` would refuse it. `accept` sees the complete body.
 */
export function bodyBytesParser(accept: (bytes: Buffer, done: Done) => void) {
  return (request: FastifyRequest, payload: NodeJS.ReadableStream & { receivedEncodedLength?: number }, done: Done): void => {
    const limit = request.routeOptions.bodyLimit ?? Infinity;
    const contentLength = Number(request.headers['content-length']);
    if (contentLength > limit) {
      done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      return;
    }
    // Sized up front only when the header is a plain length (Number('') is 0, and NaN or a
    // fraction never frames a body).
    let whole = Number.isSafeInteger(contentLength) && contentLength > 0 ? Buffer.allocUnsafeSlow(contentLength) : undefined;
    let chunks: Buffer[] | undefined = whole ? undefined : [];
    let received = 0;

    const stop = () => {
      payload.removeListener('data', onData);
      payload.removeListener('end', onEnd);
      payload.removeListener('error', onEnd);
    };
    function onData(chunk: Buffer): void {
      const offset = received;
      received += chunk.length;
      if (received > limit || (payload.receivedEncodedLength ?? 0) > limit) {
        stop();
        done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
        return;
      }
      if (whole && received <= whole.length) {
        chunk.copy(whole, offset);
      } else {
        // More than declared (only a transforming stream could do that): keep what came.
        if (whole) chunks = [whole.subarray(0, offset)];
        whole = undefined;
        chunks!.push(chunk);
      }
    }
    function onEnd(error?: Error & { statusCode?: number }): void {
      stop();
      if (error != null) {
        if (!(typeof error.statusCode === 'number' && error.statusCode >= 400)) error.statusCode = 400;
        done(error);
        return;
      }
      if (!Number.isNaN(contentLength) && (payload.receivedEncodedLength || received) !== contentLength) {
        done(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
        return;
      }
      accept(whole ?? Buffer.concat(chunks!), done);
    }
    payload.on('data', onData);
    payload.on('end', onEnd);
    payload.on('error', onEnd);
    payload.resume();
  };
}
