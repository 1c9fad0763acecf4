// Revalidations answered ahead of the router. A client that already holds an answer and
// asks again with If-None-Match costs the framework far more than the answer (routing,
// hooks, a request logger, a reply object) — most of a 304's time. For answers fixed by
// their URL alone (a query pinned to a stored snapshot), the route records what it sent;
// a later GET of exactly that URL that names exactly that ETag, from an anonymous client
// sending no header that could change the answer, is answered 304 here with the same
// headers after the same usage measurement. Everything else goes on to Fastify as before.
// Routes that record: a query pinned to a snapshot (data) and the current packet (funding
// latest). The current packet also hands over its body: the same anonymous, neutral GET
// without If-None-Match then gets the route's 200 here, after the same checks and count.
//
// Why the answer is the route's answer: the URL is byte-identical to one the route served
// (so the URL guards passed and the query validated), the headers allowed here are ones no
// guard or route reads except If-None-Match (compared for equality with the tag), the
// headers written are the ones the route recorded or computes with the route's own
// functions, and the route's checks are asked again on every answer (`revalidate`).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { loggablePath } from './logging.js';

export interface RememberedAnswer {
  /** The strong tag a revalidation must name, byte for byte. */
  etag: string;
  /** The headers the route sets first that never change for this answer, in its order. */
  headers: readonly (readonly [string, string])[];
  /**
   * The remaining headers of the route's 304 as it would write them now (name, value, …),
   * after measuring the read as the route does; undefined, without measuring, when only
   * the route can answer now (the request then goes on to it).
   */
  revalidate(): string[] | undefined;
  /**
   * For answers that may also be sent whole ahead of the router (the current packet): the
   * body, and the remaining headers of the route's 200 as it would write them now, after
   * measuring the read as the route does (undefined, without measuring, as for revalidate).
   */
  full?: { body: Buffer; serve(): string[] | undefined };
}

export interface RevalidationOptions {
  /** The headers every response carries, first (edge.ts). */
  security: Record<string, string>;
  log: FastifyBaseLogger;
  /** True while the instance shuts down or sheds load: the router answers those. */
  refusing: () => boolean;
  maxEntries?: number;
}

// Request headers that neither a guard nor a route reads (If-None-Match and Host are
// checked separately). Anything else — Authorization, Origin, traffic classes, Expect,
// Upgrade, a body — sends the request to the router.
const NEUTRAL_HEADERS = new Set(['user-agent', 'accept', 'accept-encoding', 'accept-language', 'connection', 'cache-control', 'pragma']);
/** Far below every header guard: a request with more header bytes goes to the router. */
const MAX_HEADER_BYTES = 4096;
const DEFAULT_MAX_ENTRIES = 4096;
/** The levels at which Fastify logs every request. */
const LOGS_REQUESTS = new Set(['info', 'debug', 'trace']);

const REFUSED = Symbol('not a neutral request');

/**
 * The If-None-Match value of a request sending nothing else a guard or route reads
 * (undefined without one), or REFUSED: more than one Host or tag, another header, or more
 * header bytes than MAX_HEADER_BYTES.
 */
function neutralTag(raw: readonly string[]): string | undefined | typeof REFUSED {
  let hosts = 0;
  let tag: string | undefined;
  let bytes = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i].toLowerCase();
    bytes += raw[i].length + raw[i + 1].length;
    if (name === 'host') hosts += 1;
    else if (name === 'if-none-match') {
      if (tag !== undefined) return REFUSED;
      tag = raw[i + 1];
    } else if (!NEUTRAL_HEADERS.has(name)) return REFUSED;
  }
  return hosts === 1 && bytes <= MAX_HEADER_BYTES ? tag : REFUSED;
}

export class Revalidation {
  private readonly entries = new Map<string, { answer: RememberedAnswer; head: string[] }>();
  private readonly maxEntries: number;
  private readonly security: string[];
  private nextId = 0;
  /** Revalidations answered here (for tests and benchmarks). */
  answered = 0;
  /** Whole answers (200) sent here. */
  served = 0;

  constructor(private readonly options: RevalidationOptions) {
    this.maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
    this.security = Object.entries(options.security).flat();
  }

  /**
   * Records the answer the route gave for `url` (the raw request target). The route
   * promises that while `etag` is its tag for this URL, the fixed headers are the same.
   */
  remember(url: string, answer: RememberedAnswer): void {
    const known = this.entries.get(url);
    // One URL with one tag is one answer (the routes' promise): nothing to record again.
    if (known?.answer.etag === answer.etag) return;
    if (known === undefined && this.entries.size >= this.maxEntries) {
      // The oldest recorded URL makes room: a map iterates in insertion order.
      this.entries.delete(this.entries.keys().next().value as string);
    }
    const head = [...this.security];
    for (const [name, value] of answer.headers) head.push(name, value);
    this.entries.set(url, { answer, head });
  }

  /**
   * Answers the request when it revalidates a recorded answer (304), or asks without a tag
   * for one recorded whole (200); false sends it to the router.
   */
  tryAnswer(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'GET' || req.httpVersion !== '1.1' || req.url === undefined) return false;
    const entry = this.entries.get(req.url);
    if (entry === undefined) return false;
    const tag = neutralTag(req.rawHeaders);
    if (tag === REFUSED) return false;
    const { answer } = entry;
    const full = tag === undefined ? answer.full : undefined;
    if (tag !== answer.etag && full === undefined) return false;
    if (this.options.refusing()) return false;
    let rest: string[] | undefined;
    try {
      rest = full ? full.serve() : answer.revalidate();
    } catch (error) {
      // Never an uncaught exception in the request listener: the router meets the same fault and answers it.
      this.options.log.warn({ err: error }, 'a read could not be checked ahead of the router; routing it');
      return false;
    }
    if (rest === undefined) return false;
    const headers = entry.head.concat(rest);
    if (LOGS_REQUESTS.has(this.options.log.level)) this.logged(req, res);
    if (full) {
      this.served += 1;
      headers.push('content-length', String(full.body.length));
      res.writeHead(200, headers);
      res.end(full.body);
    } else {
      this.answered += 1;
      res.writeHead(304, headers);
      res.end();
    }
    return true;
  }

  // The same two lines Fastify writes for a request it routes, with the same serialised shapes.
  private logged(req: IncomingMessage, res: ServerResponse): void {
    const started = process.hrtime.bigint();
    const id = `rv-${(this.nextId++).toString(36)}`;
    const log = this.options.log.child({ reqId: id });
    log.info({ req: { method: req.method, url: loggablePath(req.url), id } }, 'incoming request');
    res.once('finish', () => {
      const responseTime = Number(process.hrtime.bigint() - started) / 1e6;
      log.info({ res: { statusCode: res.statusCode }, responseTime }, 'request completed');
    });
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Where routes record answers that revalidations may get ahead of the router. */
    revalidation: Revalidation;
  }
}
