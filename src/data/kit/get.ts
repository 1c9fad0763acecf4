// The kit's one HTTP GET: no redirects followed, the body read up to one byte past the
// page cap (so an oversized page is refused without reading all of it), a whole-request
// timeout. An unreachable server is "could not run" (exit 2), not a refused capture.
import { KitUsageError, MAX_PAGE_BYTES, type GetPage, type HttpAnswer } from './collect.js';

export function httpGet(timeoutMs = 30_000): GetPage {
  return async (url, headers): Promise<HttpAnswer> => {
    let response: Response;
    try {
      response = await fetch(url, { headers, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      const reason = error instanceof Error && error.name === 'TimeoutError' ? 'timed out' : 'could not be reached';
      throw new KitUsageError('unreachable', `the server ${reason} (${new URL(url).origin})`);
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    if (response.body) {
      const reader: ReadableStreamDefaultReader<Uint8Array> = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        size += value.byteLength;
        if (size > MAX_PAGE_BYTES) {
          await reader.cancel();
          break;
        }
      }
    }
    return { status: response.status, contentType: response.headers.get('content-type'), body: new Uint8Array(Buffer.concat(chunks)) };
  };
}
