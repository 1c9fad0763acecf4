// One error registry for the whole service. Every machine-readable `code` a client can
// see is defined exactly once, with its HTTP status, a one-line meaning and the group it
// belongs to; groups add their own sections with `defineErrors` from their own module, so
// the catalogue stays one table without one file every change has to touch. The
// published catalogue (docs/errors.md) and the OpenAPI error responses are generated
// from it.

/** Who answers with a code: every route (`shared`), or one group's routes. */
export type ErrorGroup = 'shared' | 'analysis' | 'funding' | 'applications' | 'data';

export interface ErrorDefinition {
  readonly code: string;
  readonly status: number;
  readonly meaning: string;
  readonly group: ErrorGroup;
}

const registry = new Map<string, ErrorDefinition>();

export function defineErrors<const T extends Record<string, { status: number; meaning: string }>>(
  group: ErrorGroup,
  table: T,
): { readonly [K in keyof T]: ErrorDefinition } {
  const out: Record<string, ErrorDefinition> = {};
  for (const [code, { status, meaning }] of Object.entries(table)) {
    const existing = registry.get(code);
    if (existing && (existing.status !== status || existing.meaning !== meaning || existing.group !== group)) {
      throw new Error(`error code ${code} is defined twice with different meanings`);
    }
    if (!Number.isInteger(status) || status < 400 || status > 599) {
      throw new Error(`error code ${code} has a non-error status ${status}`);
    }
    const def = Object.freeze({ code, status, meaning, group });
    registry.set(code, def);
    out[code] = def;
  }
  return out as { readonly [K in keyof T]: ErrorDefinition };
}

/** Every registered error, sorted by code: the public error catalogue. */
export function errorCatalogue(): ErrorDefinition[] {
  return [...registry.values()].sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
}

export function lookupError(code: string): ErrorDefinition | undefined {
  return registry.get(code);
}

/**
 * An error a client caused or must be told about. `message` is the human sentence;
 * `path` is a JSON pointer (or a group's own dotted path) to the field at fault.
 */
export class AppError extends Error {
  readonly code: string;
  readonly status: number;
  readonly path: string | undefined;
  readonly headers: Record<string, string>;

  constructor(
    def: ErrorDefinition,
    message?: string,
    options: { path?: string; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message ?? def.meaning, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = def.code;
    this.status = def.status;
    this.path = options.path;
    this.headers = options.headers ?? {};
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}

/** Codes shared by every group: transport, framing and routing problems. */
export const CoreErrors = defineErrors('shared', {
  route_not_found: { status: 404, meaning: 'No operation exists at this path.' },
  method_not_allowed: { status: 405, meaning: 'The path exists but does not accept this HTTP method.' },
  malformed_json: { status: 400, meaning: 'The request body is not strict JSON (syntax, duplicate keys, non-finite literals, bad UTF-8 or nesting).' },
  empty_body: { status: 400, meaning: 'The operation needs a non-empty request body.' },
  bad_framing: { status: 400, meaning: 'The request framing is not supported (for example conflicting Content-Length headers).' },
  malformed_url: { status: 400, meaning: 'The request path is not valid percent-encoded UTF-8.' },
  body_too_large: { status: 413, meaning: 'The request body is larger than the configured limit.' },
  unsupported_media_type: { status: 415, meaning: 'The request body must be sent as application/json.' },
  credentials_in_url: { status: 400, meaning: 'Credentials must never be sent in the URL; use the Authorization header.' },
  query_too_long: { status: 414, meaning: 'The query string is longer than the service accepts.' },
  header_too_large: { status: 431, meaning: 'A request header is longer than the service accepts.' },
  invalid_request: { status: 422, meaning: 'A request parameter or field does not match the documented schema.' },
  bad_request: { status: 400, meaning: 'The request cannot be processed as sent.' },
  overloaded: { status: 503, meaning: 'The service is saturated; retry after the advised delay.' },
  storage_unavailable: { status: 503, meaning: 'The storage backend could not be reached.' },
  storage_busy: { status: 503, meaning: "Another process held the store's write lock longer than the service waits for it; retry after the advised delay." },
  malformed_request: { status: 400, meaning: 'The request line or header section is not valid HTTP/1.1 (bytes outside the grammar, obsolete line folding, an unknown version); the connection is closed.' },
  invalid_host: { status: 400, meaning: 'An HTTP/1.1 request must carry exactly one Host header, and a Host header must name a host with an optional port.' },
  host_not_allowed: { status: 400, meaning: 'The Host header names a host this instance is not configured to answer for (EVIDENCE_ALLOWED_HOSTS).' },
  unsupported_method: { status: 405, meaning: 'No operation of this service accepts the request method (CONNECT, or a method HTTP does not define); Allow lists the methods it accepts.' },
  request_timeout: { status: 408, meaning: 'The request (its headers, or its body) did not arrive within the configured time; the connection is closed.' },
  expectation_failed: { status: 417, meaning: 'The request carries an Expect header other than 100-continue, which this service cannot meet.' },
  shutting_down: { status: 503, meaning: 'This instance is shutting down; retry, another instance or this one after its restart will answer.' },
  internal_error: { status: 500, meaning: 'An unexpected failure inside the service; it has been logged.' },
});
