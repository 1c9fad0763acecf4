// The edge: what happens between the socket and the router. Node's HTTP parser refuses
// some requests before Fastify sees them (broken framing, bytes outside the grammar,
// oversized headers, timeouts), answers others itself (no Host, an unknown Expect) and
// drops CONNECT. Here each of them gets a designed answer: a registry code in the neutral
// error body, the security headers every response carries, and `Connection: close`
// wherever the byte stream can no longer be trusted. The connection timeouts are set here
// too, from the configuration (README "Configuration", docs/DECISIONS.md "The edge").

import { STATUS_CODES, type IncomingMessage, type ServerOptions, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import type { Config } from '../core/config.js';
import { AppError, CoreErrors, type ErrorDefinition } from '../core/errors.js';
import { hostCheck, isHostFieldValue } from '../core/hosts.js';
import { errorBody } from './errors.js';
import { PipelineGate } from './pipelining.js';
import { targetAuthority } from './target.js';

/** Largest request line plus header section accepted (Node's default, stated on purpose). */
export const MAX_HEADER_BYTES = 16 * 1024;
/** How long a refused connection may drain what its client still sends before it is cut. */
export const LINGER_MS = 2000;
/** How often a refusal re-checks an answer that is written out but still holds the socket. */
const FINISH_POLL_MS = 5;
const NOTHING = Buffer.alloc(0);

type EdgeConfig = Pick<Config, 'mode' | 'headersTimeout' | 'requestTimeout' | 'keepAliveTimeout' | 'allowedHosts'>;

/** The headers every response carries, whoever writes it. */
export function securityHeaders(config: Pick<Config, 'mode'>): Record<string, string> {
  const headers: Record<string, string> = { 'x-content-type-options': 'nosniff' };
  if (config.mode === 'sample') headers['x-evidence-mode'] = 'sample';
  return headers;
}

/**
 * How often Node looks for connections past their headers or request deadline: often
 * enough that a deadline is overrun by at most a quarter of it (and never by more than a
 * second), rarely enough to cost nothing (one pass over the open connections).
 */
export function checkingIntervalMs(config: Pick<Config, 'headersTimeout' | 'requestTimeout'>): number {
  return Math.max(25, Math.min(1000, Math.floor(Math.min(config.headersTimeout, config.requestTimeout) / 4)));
}

// Parser failures that concern where the message ends: the rest of the stream cannot be read.
const FRAMING_FAILURES = new Set([
  'HPE_INVALID_CONTENT_LENGTH',
  'HPE_UNEXPECTED_CONTENT_LENGTH',
  'HPE_INVALID_TRANSFER_ENCODING',
  'HPE_INVALID_CHUNK_SIZE',
  'HPE_CHUNK_EXTENSIONS_OVERFLOW',
  'HPE_INVALID_EOF_STATE',
  'HPE_CLOSED_CONNECTION',
]);

type Refusal = 'framing' | 'request' | 'url' | 'headers' | 'timeout' | 'method';

// RFC 9110 §5.6.2 token characters, which a method consists of.
const TCHAR = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]$/;

/**
 * Node's parser stops at the first byte that continues no method it knows. The method is
 * the run of bytes from the start of that line to the first space: when every byte of it is
 * a token character it is a method this service does not have (405); anything else (a TLS
 * handshake, JSON, `G@T`, `ZQ<x`) is no method at all, a malformed request line (400).
 */
function isUnknownMethod(error: { rawPacket?: unknown; bytesParsed?: number }): boolean {
  const { rawPacket, bytesParsed } = error;
  if (!Buffer.isBuffer(rawPacket) || bytesParsed === undefined || bytesParsed >= rawPacket.length) return true;
  let start = bytesParsed;
  while (start > 0 && rawPacket[start - 1] !== 0x0a) start--;
  let end = bytesParsed;
  while (end < rawPacket.length && rawPacket[end] !== 0x20) end++;
  if (end === start) return false;
  for (let i = start; i < end; i++) if (!TCHAR.test(String.fromCharCode(rawPacket[i]))) return false;
  return true;
}

/**
 * What a parser failure refuses. `inBody`: the request's head was read whole and its body
 * broke, so a fault the parser names generically (a missing CR or LF after chunk data, a bad
 * byte in a chunk extension) is one of framing, not of the request line or headers.
 */
function refusalFor(error: { code?: string; rawPacket?: unknown; bytesParsed?: number }, inBody: boolean): Refusal {
  const code = error.code;
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 'timeout';
  if (code === 'HPE_HEADER_OVERFLOW') return 'headers';
  if (code === 'HPE_INVALID_METHOD') return isUnknownMethod(error) ? 'method' : 'request';
  if (code === 'HPE_INVALID_URL') return 'url';
  if ((code !== undefined && FRAMING_FAILURES.has(code)) || inBody) return 'framing';
  return 'request';
}

interface Pending {
  _httpMessage?: ServerResponse | null;
}

export interface Edge {
  /** Fastify options that shape the server: timeouts, parser limits, the parser's refusals. */
  serverOptions: { http: ServerOptions } & Pick<
    FastifyServerOptions,
    'keepAliveTimeout' | 'requestTimeout' | 'connectionTimeout' | 'return503OnClosing' | 'clientErrorHandler'
  >;
  /**
   * Hooks and server listeners; call right after creating the instance, before any other hook.
   * `closesAfter` names answers, besides those already sending `Connection: close`, after
   * which the connection ends (the analysis group's refusals).
   */
  install(app: FastifyInstance, closesAfter?: (request: FastifyRequest, reply: FastifyReply) => boolean): void;
  /** Security headers, and `Connection: close` after an upgrade request, for a reply written outside the hooks. */
  prepare(raw: IncomingMessage, reply: FastifyReply): void;
  /** Ends the connection after this request's answer (its body, if any, still read first). */
  closeAfterAnswer(raw: IncomingMessage, reply: FastifyReply): void;
  /** Whether `prepare` ran for this reply (its headers are set). */
  prepared(reply: FastifyReply): boolean;
  /** True once the instance has begun to shut down (requests then get `shutting_down`). */
  isClosing(): boolean;
  /** Whether the request's Host is one this instance answers for (any, without EVIDENCE_ALLOWED_HOSTS). */
  answersHost(raw: IncomingMessage): boolean;
  /**
   * Called with every request head Node reads (the server's request listener): notes it, and
   * says whether the request came past its connection's pipelining limit (never routed, never answered).
   */
  dropped(raw: IncomingMessage): boolean;
}

/**
 * The hosts a request names: the authority of an absolute-form target, which a server must
 * take instead of Host (RFC 9112 §3.2.2), or else every Host line (undefined without one).
 * Every one of them must be answerable: a proxy may honour any of several Host lines.
 */
function hostsNamed(raw: IncomingMessage & { originalUrl?: string }): (string | undefined)[] {
  const authority = targetAuthority(raw.originalUrl ?? raw.url ?? '/');
  if (authority !== undefined) return [authority];
  const hosts: string[] = [];
  const headers = raw.rawHeaders;
  for (let i = 0; i < headers.length; i += 2) if (headers[i].length === 4 && headers[i].toLowerCase() === 'host') hosts.push(headers[i + 1]);
  return hosts.length === 0 ? [undefined] : hosts;
}

/**
 * How long a shutdown waits for the requests being answered before it cuts every connection:
 * within close-with-grace's 10 s, and no longer than a request may take to arrive.
 */
export function drainBoundMs(config: Pick<Config, 'requestTimeout'>): number {
  return Math.min(8_000, config.requestTimeout);
}

export function createEdge(config: EdgeConfig): Edge {
  const sample = config.mode === 'sample';
  const security = securityHeaders(config);
  const methods = new Set<string>();
  const refused = new WeakSet<Socket>();
  const expectationRefused = new WeakSet<IncomingMessage>();
  const continueOwed = new WeakSet<IncomingMessage>();
  let closing = false;
  const pipeline = new PipelineGate();
  /** Each routed request's response, to tell whether a request the parser gave up on was answered. */
  const responseOf = new WeakMap<IncomingMessage, ServerResponse>();

  const allow = () => [...methods].sort().join(', ');
  const hostAllowed = hostCheck(config.allowedHosts);
  /** Whether the hosts named (already known to be valid) are ones this instance answers for. */
  const hostsAllowed = (raw: IncomingMessage) => hostAllowed === undefined || hostsNamed(raw).every(hostAllowed);
  const answersHost = (raw: IncomingMessage) => hostLinesValid(raw) && hostsAllowed(raw);

  /** A complete response with a fixed body (none for HEAD), written where no reply object exists. */
  const rawResponse = (def: ErrorDefinition, message: string, extra: Record<string, string> = {}, head = false): Buffer => {
    const body = JSON.stringify(errorBody('any', { code: def.code, message }, sample));
    const lines = [
      `HTTP/1.1 ${def.status} ${STATUS_CODES[def.status] ?? 'Error'}`,
      'content-type: application/json; charset=utf-8',
      `content-length: ${Buffer.byteLength(body)}`,
      ...Object.entries({ ...security, ...extra }).map(([name, value]) => `${name}: ${value}`),
      'cache-control: no-store',
      'connection: close',
    ];
    return Buffer.from(`${lines.join('\r\n')}\r\n\r\n${head ? '' : body}`, 'utf8');
  };

  const refusals: Record<Refusal, () => [ErrorDefinition, string, Record<string, string>?]> = {
    framing: () => [CoreErrors.bad_framing, 'the request framing (Content-Length, Transfer-Encoding or chunk sizes) is not valid HTTP/1.1; the connection is closed'],
    request: () => [CoreErrors.malformed_request, 'the request line or a header is not valid HTTP/1.1; the connection is closed'],
    url: () => [CoreErrors.malformed_url, 'the request target holds bytes a URL may not contain; the connection is closed'],
    headers: () => [CoreErrors.header_too_large, `the request line and headers are larger than ${MAX_HEADER_BYTES} bytes; the connection is closed`],
    timeout: () => [
      CoreErrors.request_timeout,
      `the request did not arrive in time (headers within ${config.headersTimeout} ms, the whole request within ${config.requestTimeout} ms); the connection is closed`,
    ],
    method: () => [CoreErrors.unsupported_method, `no operation of this service accepts this method; it accepts ${allow()}`, { allow: allow() }],
  };
  const responses = new Map<string, { status: number; bytes: Buffer }>();
  /** The refusal's response; `head`: to a HEAD request, which gets the headers alone. */
  const responseFor = (refusal: Refusal, head = false): { status: number; bytes: Buffer } => {
    const key = `${refusal}${head ? ' head' : ''}`;
    const known = responses.get(key);
    if (known) return known;
    const [def, message, extra] = refusals[refusal]();
    const built = { status: def.status, bytes: rawResponse(def, message, extra, head) };
    // Fixed once the routes (and so the Allow list) are known.
    if (methods.size > 0) responses.set(key, built);
    return built;
  };

  /**
   * Writes the answer, then closes our side and lets the parser swallow whatever the client
   * still sends for a moment: cutting at once would reset the connection under a client
   * that is still writing (an oversized header, a body), which may then never read the answer.
   */
  const answerAndClose = (socket: Socket, bytes: Buffer) => {
    const cut = setTimeout(() => socket.destroy(), LINGER_MS);
    cut.unref();
    socket.once('close', () => clearTimeout(cut));
    socket.end(bytes);
  };

  /**
   * For a routed answer that closes the connection: requests that follow it on the
   * connection would get no answer, so they do not run either (the hook below drops them),
   * and once the answer is out the connection ends the way parser refusals end
   * (answerAndClose), reading and dropping what the client still sends for a moment: Node
   * would close at once and reset a client that is still writing, which may lose the answer.
   */
  const ending = new WeakSet<Socket>();
  /** Once the answer is out, the connection ends the way parser refusals end (see above). */
  const closeGently = (socket: Socket) => {
    (socket as Socket & { destroySoon(): void }).destroySoon = () => answerAndClose(socket, NOTHING);
  };
  const endQuietly = (socket: Socket) => {
    if (ending.has(socket)) return;
    ending.add(socket);
    closeGently(socket);
  };

  /** Connections on which a request head has been read whole (see refusedIsHead). */
  const headsRead = new WeakSet<Socket>();

  /**
   * Whether the request Node's parser refused is certainly a HEAD; when in doubt it is
   * answered as a request with a body, which a HEAD client can still read (the connection
   * closes after it), where a body left out would cut a GET's answer short. Certain are a
   * request whose head was read and whose body broke (a message with its method), and the
   * first request of a connection refused in the first packet the connection received: its
   * request line is then where the packet starts. Elsewhere a packet may start inside a
   * header or a body, which may hold any text.
   */
  function refusedIsHead(error: Error & { rawPacket?: unknown }, socket: Socket, incoming: IncomingMessage | null | undefined): boolean {
    if (incoming && !incoming.complete) return incoming.method === 'HEAD';
    const packet = error.rawPacket;
    if (headsRead.has(socket) || !Buffer.isBuffer(packet) || socket.bytesRead !== packet.length) return false;
    // A parser skips empty lines ahead of a request line.
    let start = 0;
    while (packet[start] === 0x0d || packet[start] === 0x0a) start++;
    return packet.subarray(start, start + 5).toString('latin1') === 'HEAD ';
  }

  function onClientError(this: FastifyInstance, error: Error & { code?: string; rawPacket?: unknown }, socket: Socket): void {
    // After an answer that ends the connection, what the client still sends (the body of
    // a refused request, say) may not parse; it is read and dropped, never answered.
    if (refused.has(socket) || ending.has(socket)) return;
    refused.add(socket);
    if (error.code === 'ECONNRESET' || socket.destroyed) {
      socket.destroy();
      return;
    }
    // A request answered at its headers (a full analysis queue, say) whose body then stopped
    // arriving or broke has had its answer: the connection only ends. A 408 or 400 after it
    // would be read as the answer to the client's next request.
    const incoming = (socket as Socket & { parser?: { incoming?: IncomingMessage | null } | null }).parser?.incoming;
    if (incoming && !incoming.complete && responseOf.get(incoming)?.headersSent) {
      answerAfterPending(socket, NOTHING, Date.now() + config.requestTimeout);
      return;
    }
    // A refused HEAD request gets no body either (RFC 9110 §9.3.2).
    const { status, bytes } = responseFor(refusalFor(error, incoming != null && !incoming.complete), refusedIsHead(error, socket, incoming));
    // Never the raw packet: it holds the client's headers, Authorization included.
    this.log.info({ refused: { reason: error.code ?? 'unknown', status } }, 'request refused before routing');
    answerAfterPending(socket, bytes, Date.now() + config.requestTimeout);
  }

  /**
   * Answers once the responses to earlier, complete requests on the connection are out:
   * a malformed request pipelined behind good ones must not cost them their answers. A
   * response already under way for the refused request itself cannot be followed by
   * another on the same stream, so that connection is only cut.
   */
  function answerAfterPending(socket: Socket, bytes: Buffer, deadline: number): void {
    if (socket.destroyed) return;
    const pending = (socket as Socket & Pending)._httpMessage;
    if (pending && pending.req.complete && Date.now() < deadline) {
      // Wait for this answer's 'finish' even when its bytes are out already (an answer
      // written at once, such as a 404): Node hands the socket to the answer of the next
      // pipelined request only then, and that one must go out before the refusal too. For
      // such an answer a short timer re-checks as well, in case its 'finish' has passed.
      // An answer still being computed is waited for however long it takes (the client is
      // owed it; a client that stops reading is cut by the inactivity limit).
      let waited = false;
      const next = () => {
        if (waited) return;
        waited = true;
        clearTimeout(timer);
        setImmediate(() => answerAfterPending(socket, bytes, deadline));
      };
      const timer = pending.writableFinished ? setTimeout(next, FINISH_POLL_MS).unref() : undefined;
      pending.once('finish', next);
      pending.once('close', next);
      return;
    }
    if (!socket.writable || (pending && !pending.writableFinished && pending.headersSent)) {
      socket.destroy();
      return;
    }
    // The refused request itself was routed and answered in full before its framing broke
    // (a method its path does not take, answered at the headers): a second answer would
    // be one nobody asked for, so the connection only ends.
    answerAndClose(socket, pending && pending.headersSent ? NOTHING : bytes);
  }

  const httpOptions: ServerOptions = {
    headersTimeout: config.headersTimeout,
    requestTimeout: config.requestTimeout,
    keepAliveTimeout: config.keepAliveTimeout,
    connectionsCheckingInterval: checkingIntervalMs(config),
    maxHeaderSize: MAX_HEADER_BYTES,
    // Answered by the hook below with a coded body instead of Node's empty 400.
    requireHostHeader: false,
  };

  const prepare = (raw: IncomingMessage, reply: FastifyReply) => {
    reply.headers(security);
    // After a request that asks for an upgrade, Node's parser drops what follows it in the
    // same read (it would belong to the new protocol; we have no upgrade listener): answer
    // it, then close, so nothing sent after it waits for an answer that cannot come.
    // (The parser never completes an upgrade request without a body: it stops at its head.)
    if (raw.headers.upgrade !== undefined) closeAfterAnswer(raw, reply);
  };

  /**
   * Ends the connection after this request's answer. Its own body is still read, so the
   * connection counts as ending only once that body is in: a body that never arrives still
   * gets its 408. An answer given before the body is in (a 404, say) still closes gently:
   * its `Connection: close` makes the onSend hook below see to that.
   */
  const closeAfterAnswer = (raw: IncomingMessage, reply: FastifyReply) => {
    reply.header('connection', 'close');
    if (raw.complete || !announcesBody(raw)) endQuietly(raw.socket);
    else raw.once('end', () => endQuietly(raw.socket));
  };

  /** Refuses the request in the path's group shape and ends the connection after the answer. */
  const refuseAndEnd = (raw: IncomingMessage, done: (error: Error) => void, def: ErrorDefinition, message: string, headers: Record<string, string> = {}) => {
    endQuietly(raw.socket);
    done(new AppError(def, message, { headers: { ...headers, connection: 'close' } }));
  };

  return {
    serverOptions: {
      http: httpOptions,
      keepAliveTimeout: config.keepAliveTimeout,
      requestTimeout: config.requestTimeout,
      // Socket inactivity (nothing moving either way, e.g. a client that stops reading the answer).
      connectionTimeout: config.requestTimeout,
      // Requests arriving while the instance shuts down get `shutting_down` from the hook.
      return503OnClosing: false,
      clientErrorHandler: onClientError,
    },
    prepare,
    closeAfterAnswer,
    prepared: (reply) => reply.hasHeader('x-content-type-options'),
    isClosing: () => closing,
    answersHost,
    dropped: (raw) => {
      headsRead.add(raw.socket);
      return pipeline.isFull(raw.socket);
    },
    install(app, closesAfter) {
      // Every answer that closes the connection closes it gently: Fastify's own 413 for a body
      // declared over the limit sets `Connection: close` while the client is still sending that
      // body, and Node's close would reset it before it read the answer.
      app.addHook('onSend', (request, reply, payload, done) => {
        if (closesAfter?.(request, reply) === true && !ending.has(request.raw.socket)) closeAfterAnswer(request.raw, reply);
        const connection = reply.getHeader('connection');
        if (typeof connection === 'string' && connection.toLowerCase() === 'close') closeGently(request.raw.socket);
        done(null, payload);
      });
      app.addHook('onRoute', (route) => {
        if (onlyRefuses(route)) return;
        for (const method of Array.isArray(route.method) ? route.method : [route.method]) methods.add(String(method).toUpperCase());
      });
      app.addHook('preClose', (done) => {
        closing = true;
        // Fastify closes the connections idle at this moment and the server waits for the
        // rest: one holding half a request (headers or a body still arriving, or nothing sent
        // yet) held the process until close-with-grace killed it (exit 1). Once the requests
        // being answered are answered, or after the drain bound, every connection is cut.
        const server = app.server;
        const cut = () => server.closeAllConnections();
        pipeline.whenQuiet(() => setImmediate(cut));
        setTimeout(cut, drainBoundMs(config)).unref();
        done();
      });
      // Requests in flight when the shutdown starts are answered, then their connections end
      // (Fastify closes only the connections idle at that moment, so a kept-alive one held the
      // process a keep-alive timeout longer, and past close-with-grace's delay it was killed).
      // A request already waiting behind it on the connection gets its `shutting_down` first.
      app.addHook('onSend', (request, reply, payload, done) => {
        if (closing && !pipeline.hasWaiting(request.raw.socket)) reply.header('connection', 'close');
        done(null, payload);
      });
      app.addHook('onRequest', (request, reply, done) => {
        const raw = request.raw;
        responseOf.set(raw, reply.raw);
        // One request of a connection at a time (src/http/pipelining.ts); past the limit,
        // neither answered nor run.
        if (pipeline.admit(raw.socket, reply.raw, (closeAfter) => admitted(request, reply, done, closeAfter)) === 'refused') reply.hijack();
      });
      const admitted = (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void, closeAfter: boolean) => {
        const raw = request.raw;
        if (ending.has(raw.socket)) {
          // Behind an answer that ends the connection: never answered, so never run.
          reply.hijack();
          return;
        }
        prepare(raw, reply);
        if (closeAfter) {
          // The last request admitted on a connection that pipelined past the limit.
          reply.header('connection', 'close');
          endQuietly(raw.socket);
        }
        if (closing) {
          refuseAndEnd(raw, done, CoreErrors.shutting_down, 'this instance is shutting down; retry', { 'retry-after': '1' });
          return;
        }
        // Node's parser also takes HTTP/2.0 and HTTP/0.9 request lines (and none), and
        // serves them as HTTP/1.x without its rules (one Host): this service speaks 1.0 and 1.1.
        if (raw.httpVersionMajor !== 1 || raw.httpVersionMinor > 1) {
          refuseAndEnd(raw, done, CoreErrors.malformed_request, 'this service speaks HTTP/1.0 and HTTP/1.1 only; the connection is closed');
          return;
        }
        // Node's own limit counts the bytes of the target and of header names and values only,
        // so thousands of short lines pass it; the section is measured here as written
        // (optional whitespace aside, which the parser drops unseen).
        if (headerSectionBytes(raw) > MAX_HEADER_BYTES) {
          refuseAndEnd(raw, done, CoreErrors.header_too_large, `the request line and headers are larger than ${MAX_HEADER_BYTES} bytes; the connection is closed`);
          return;
        }
        if (expectationRefused.has(raw)) {
          refuseAndEnd(raw, done, CoreErrors.expectation_failed, 'the only expectation this service meets is Expect: 100-continue');
          return;
        }
        if (raw.httpVersionMinor === 1 && hostHeaderCount(raw.rawHeaders) !== 1) {
          refuseAndEnd(raw, done, CoreErrors.invalid_host, 'an HTTP/1.1 request must carry exactly one Host header');
          return;
        }
        if (!hostLinesValid(raw)) {
          refuseAndEnd(raw, done, CoreErrors.invalid_host, 'the Host header (or the authority of the target) is not a host name or address with an optional port');
          return;
        }
        if (!hostsAllowed(raw)) {
          done(new AppError(CoreErrors.host_not_allowed, 'this instance does not answer for the host named in the Host header'));
          return;
        }
        // Node reads `gzip, chunked` as plain chunked and hands over the coded bytes as if
        // they were the body; no coding but chunked is read here, so such framing is refused.
        const coding = raw.headers['transfer-encoding'];
        if (coding !== undefined && coding.trim().toLowerCase() !== 'chunked') {
          refuseAndEnd(raw, done, CoreErrors.bad_framing, 'the only transfer coding this service reads is chunked (alone); the connection is closed');
          return;
        }
        // Node's parser takes any target that starts with `*`, and the router reads that `*`
        // as `/` (`GET *v1/funding/latest` was served). The asterisk form is `OPTIONS *` alone:
        // it asks what the server as a whole accepts (of a host this instance answers for).
        const target = (raw as IncomingMessage & { originalUrl?: string }).originalUrl ?? raw.url ?? '/';
        if (target.startsWith('*')) {
          if (target === '*' && raw.method === 'OPTIONS') {
            reply.code(204).header('allow', allow()).send();
            return;
          }
          done(new AppError(CoreErrors.malformed_url, 'the request target is not a path (a target of * is for OPTIONS alone)'));
          return;
        }
        // A fragment is never part of a request target (RFC 9112 §3.2). Node's parser passes a
        // raw `#`, and the router cut the path there and read what followed as the query,
        // past the guards that look for the query after `?` (its length, credentials, the log).
        if (target.includes('#')) {
          done(new AppError(CoreErrors.malformed_url, 'the request target holds a raw # (a fragment is never sent; write %23 for the character)'));
          return;
        }
        done();
      };

      const server = app.server as typeof app.server & { httpAllowHalfOpen: boolean };
      // A client may close its sending side once its request is out (`nc -N`, some proxies).
      // By default Node then ends the connection at once, so an answer still being computed
      // is lost; with this (an http.Server property since Node 0.x, not in the typings) the
      // answers owed are written first and the connection ends after the last of them.
      server.httpAllowHalfOpen = true;
      // Every header line is kept (Node keeps the first 2000 names and values by default, and
      // the checks above would not see a Host, Transfer-Encoding or Expect line past them).
      // The header section's size bounds how many there can be.
      server.maxHeadersCount = 0;
      // Node answers an unknown expectation with an empty 417; route it instead, so the
      // hook above answers it like any other refusal.
      server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
        expectationRefused.add(req);
        server.emit('request', req, res);
      });
      // Node sends `100 Continue` as soon as the headers are in. It is owed only to a request
      // whose body will be read: one refused at its headers (a full analysis queue, a body
      // over the limit, a guard, no route, a media type no parser takes) gets its final
      // answer instead, and its client never starts an upload it would have to throw away.
      // So it is sent when a body parser first asks for the body (the stream resumes),
      // never after a final answer (Node resumes the stream to discard an unread body).
      server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
        // Node takes any value holding the word (`foo-100-continue`, `100-continue, x`); the
        // one expectation met here is 100-continue alone.
        if (req.headers.expect!.trim().toLowerCase() !== '100-continue') {
          expectationRefused.add(req);
          server.emit('request', req, res);
          return;
        }
        // Nothing is owed to a request whose framing says it has no body (RFC 9110 §10.1.1).
        // Node closes the connection after any answer sent without its 100 (to drop a body it
        // never asked for), which would end the keep-alive and lose the requests pipelined
        // behind, so such a request is served as one that never asked.
        if (!announcesBody(req)) {
          (res as ServerResponse & { _expect_continue: boolean })._expect_continue = false;
          server.emit('request', req, res);
          return;
        }
        continueOwed.add(req);
        server.emit('request', req, res);
      });
      app.addHook('preParsing', (request, reply, payload, done) => {
        const raw = request.raw;
        if (continueOwed.delete(raw) && !(Number(raw.headers['content-length']) > request.routeOptions.bodyLimit)) {
          const res = reply.raw;
          raw.once('resume', () => {
            if (!res.headersSent && !res.writableEnded) res.writeContinue();
          });
        }
        done(null, payload);
      });
      // The inactivity limit (connectionTimeout) is for clients that stall. While a complete
      // request waits for its answer (an analysis queued behind others, a worker starting),
      // the server is the one that is slow: cutting then would lose an answer the client is
      // owed. Node re-arms the limit at the next byte either way, so the answer itself, and
      // a client that stops reading it, are still bounded by it.
      // A request whose body stopped arriving is refused as a request timeout (408), like one
      // Node's own request deadline catches: the two limits are equal by default, and this
      // one may fire first.
      server.on('timeout', (socket: Socket) => {
        const pending = (socket as Socket & Pending)._httpMessage;
        if (pending && !pending.headersSent && !pending.destroyed) {
          if (pending.req.complete) return;
          onClientError.call(app, Object.assign(new Error('the request stalled'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }), socket);
          return;
        }
        socket.destroy();
      });
      // Without a listener Node drops CONNECT without a word. This service is no proxy.
      server.on('connect', (_req: IncomingMessage, socket: Socket) => {
        const { status, bytes } = responseFor('method');
        app.log.info({ refused: { reason: 'CONNECT', status } }, 'request refused before routing');
        refused.add(socket);
        socket.on('error', () => undefined);
        socket.resume();
        // Answers owed to requests pipelined ahead of it go out first.
        answerAfterPending(socket, bytes, Date.now() + config.requestTimeout);
      });
    },
  };
}

/** The request line and header section as written, less optional whitespace. */
function headerSectionBytes(raw: IncomingMessage & { originalUrl?: string }): number {
  // METHOD SP target SP HTTP/x.y CRLF, each `name:value` CRLF, then the empty line.
  let bytes = raw.method!.length + 1 + Buffer.byteLength(raw.originalUrl ?? raw.url ?? '') + 1 + 8 + 2 + 2;
  const headers = raw.rawHeaders;
  for (let i = 0; i < headers.length; i += 2) bytes += Buffer.byteLength(headers[i]) + 1 + Buffer.byteLength(headers[i + 1]) + 2;
  return bytes;
}

/**
 * Whether every Host line holds a host (RFC 9112 §3.2: any other value is a 400), and so does
 * the authority of an absolute-form target, which stands in for Host (userinfo there is an
 * error too: RFC 9110 §4.2.4).
 */
function hostLinesValid(raw: IncomingMessage & { originalUrl?: string }): boolean {
  const authority = targetAuthority(raw.originalUrl ?? raw.url ?? '/');
  if (authority !== undefined && !isHostFieldValue(authority)) return false;
  const headers = raw.rawHeaders;
  for (let i = 0; i < headers.length; i += 2) if (headers[i].length === 4 && headers[i].toLowerCase() === 'host' && !isHostFieldValue(headers[i + 1].replace(/^[ \t]+|[ \t]+$/g, ''))) return false;
  return true;
}

/** Whether the request's framing says a body follows (a length above 0, or a transfer coding). */
function announcesBody(raw: IncomingMessage): boolean {
  if (raw.headers['transfer-encoding'] !== undefined) return true;
  const length = raw.headers['content-length'];
  return length !== undefined && !/^0+$/.test(length.trim());
}

function hostHeaderCount(rawHeaders: string[]): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i].toLowerCase() === 'host') count++;
  return count;
}

/** A route that exists only to refuse its method (405 with its own Allow): it makes no method accepted. */
export function onlyRefuses(route: { config?: unknown }): boolean {
  return (route.config as { onlyRefuses?: boolean } | undefined)?.onlyRefuses === true;
}
