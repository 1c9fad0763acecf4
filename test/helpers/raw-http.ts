// Raw HTTP/1.1 over `node:net`, for tests of what the edge answers to bytes no HTTP client
// would send. `exchange` writes bytes and collects everything until the server closes (or
// the test's own limit); `parseResponses` splits what came back into responses.
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

export interface Exchange {
  bytes: Buffer;
  /** True when the server closed the connection; false when the test's limit ran out first. */
  closed: boolean;
  /** Milliseconds from the first write to the close (or to the limit). */
  elapsedMs: number;
  /** The connection was reset rather than closed in order. */
  reset: boolean;
}

export interface ExchangeOptions {
  /** Half-close our side after writing (the server then sees the end of the stream). */
  end?: boolean;
  /** Give up (and destroy the socket) after this many milliseconds. */
  limitMs?: number;
  /** Pieces written one after another with a pause between them (slow clients). */
  pauseMs?: number;
}

export function portOf(app: FastifyInstance): number {
  return (app.server.address() as AddressInfo).port;
}

export function exchange(port: number, pieces: Buffer | string | Array<Buffer | string>, options: ExchangeOptions = {}): Promise<Exchange> {
  const parts = (Array.isArray(pieces) ? pieces : [pieces]).map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : p));
  const limitMs = options.limitMs ?? 10_000;
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let started = Date.now();
    let reset = false;
    let settled = false;
    let writer: NodeJS.Timeout | undefined;
    const finish = (closed: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(limit);
      clearTimeout(writer);
      if (!closed) socket.destroy();
      resolve({ bytes: Buffer.concat(chunks), closed, elapsedMs: Date.now() - started, reset });
    };
    const limit = setTimeout(() => finish(false), limitMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNRESET' || error.code === 'EPIPE') reset = true;
    });
    socket.on('close', () => finish(true));
    socket.on('connect', () => {
      started = Date.now();
      let next = 0;
      const writeNext = () => {
        if (settled || socket.destroyed || !socket.writable) return;
        const part = parts[next++];
        if (part !== undefined) socket.write(part);
        if (next < parts.length) writer = setTimeout(writeNext, options.pauseMs ?? 0);
        else if (options.end) socket.end();
      };
      writeNext();
    });
  });
}

export interface RawResponse {
  status: number;
  /** Header names in lower case; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
}

const NO_BODY = (status: number) => (status >= 100 && status < 200) || status === 204 || status === 304;

/**
 * Splits the bytes a server sent into responses (Content-Length and chunked bodies;
 * `headRequests` marks which responses answer HEAD and so carry no body). Throws on bytes
 * that are not a well-formed sequence of responses: a test that reads garbage must fail.
 */
export function parseResponses(bytes: Buffer, headRequests: ReadonlySet<number> = new Set()): RawResponse[] {
  const out: RawResponse[] = [];
  let at = 0;
  let finals = 0;
  while (at < bytes.length) {
    const end = bytes.indexOf('\r\n\r\n', at, 'latin1');
    if (end === -1) throw new Error(`truncated response head: ${JSON.stringify(bytes.subarray(at, at + 200).toString('latin1'))}`);
    const lines = bytes.subarray(at, end).toString('latin1').split('\r\n');
    const m = /^HTTP\/1\.1 (\d{3}) [^\r\n]*$/.exec(lines[0]);
    if (!m) throw new Error(`not a status line: ${JSON.stringify(lines[0])}`);
    const status = Number(m[1]);
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      if (colon <= 0) throw new Error(`not a header line: ${JSON.stringify(line)}`);
      const name = line.slice(0, colon).toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    }
    at = end + 4;
    let body: Buffer = Buffer.alloc(0);
    const isHead = status >= 200 && headRequests.has(finals);
    if (!NO_BODY(status) && !isHead) {
      if (headers['transfer-encoding'] === 'chunked') {
        const parts: Buffer[] = [];
        for (;;) {
          const lineEnd = bytes.indexOf('\r\n', at, 'latin1');
          if (lineEnd === -1) throw new Error('truncated chunk size');
          const size = parseInt(bytes.subarray(at, lineEnd).toString('latin1'), 16);
          if (!Number.isFinite(size)) throw new Error('bad chunk size');
          at = lineEnd + 2;
          if (size === 0) {
            if (bytes.subarray(at, at + 2).toString('latin1') !== '\r\n') throw new Error('trailers are not expected');
            at += 2;
            break;
          }
          parts.push(bytes.subarray(at, at + size));
          at += size + 2;
        }
        body = Buffer.concat(parts);
      } else if (headers['content-length'] !== undefined) {
        const length = Number(headers['content-length']);
        if (at + length > bytes.length) throw new Error('truncated body');
        body = bytes.subarray(at, at + length);
        at += length;
      } else {
        // Delimited by the close.
        body = bytes.subarray(at);
        at = bytes.length;
      }
    }
    if (status >= 200) finals++;
    out.push({ status, headers, body });
  }
  return out;
}
