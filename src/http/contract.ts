// Route contracts: the one place each operation is described. A contract names the
// method and path, the request schemas, every success answer with its body schema, and
// the registry errors the operation itself can answer with. From it the shell derives the
// Fastify route schema, the OpenAPI operation (error answers included, with their codes),
// the prefix mounts and the paths a group owns; the contract test derives what to check.
import type { TSchema } from 'typebox';
import { CoreErrors, type ErrorDefinition } from '../core/errors.js';

export type HttpMethod = 'GET' | 'POST' | 'DELETE';

/** One documented success answer. */
export interface SuccessSpec {
  readonly description: string;
  /** Body schema by media type; absent for answers without a body (304). */
  readonly content?: Readonly<Record<string, TSchema>>;
}

export interface RouteContract {
  readonly method: HttpMethod;
  /** Path relative to the group's mount, Fastify syntax (`:name` for a parameter). */
  readonly url: string;
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  readonly tags: readonly string[];
  /** Request schemas. Query and body schemas are enforced by Fastify unless noted below. */
  readonly querystring?: TSchema;
  readonly params?: TSchema;
  readonly body?: TSchema;
  /**
   * The body schema documents the request, and the operation checks it itself (group A's
   * validator with the upstream's messages and order, or an exact-body rule).
   */
  readonly bodyCheckedByOperation?: boolean;
  /**
   * The query schema documents the parameters, and the operation checks them itself (group
   * C answers every invalid parameter with its one 422 body): Fastify accepts any query.
   */
  readonly queryCheckedByOperation?: boolean;
  /**
   * Error answers whose body is not the group's usual error shape, by status: the schema
   * for the codes documented at that status (group C's 422 validation list).
   */
  readonly errorBodies?: Readonly<Record<number, (codes: readonly string[]) => TSchema>>;
  /**
   * Served only under the group's upstream prefix: at the root the same path belongs to
   * another group (group B's OpenBB manifests under /funding-evidence; /widgets.json at the
   * root is group C's).
   */
  readonly prefixOnly?: boolean;
  /**
   * Served only at the root, and claiming no namespace there: the data API's own paths for
   * the application-key operations (/api/v1/applications), whose unrouted neighbours stay
   * the data group's.
   */
  readonly rootOnly?: boolean;
  /** Success answers by status. */
  readonly success: Readonly<Record<number, SuccessSpec>>;
  /** Registry errors the operation answers with; the shell's own are added by errorsOf. */
  readonly errors: readonly ErrorDefinition[];
}

/** Whether a group mounted at `mount` ('' for the root) serves `contract` there. */
export function servedAt(contract: RouteContract, mount: string): boolean {
  return mount === '' ? !contract.prefixOnly : !contract.rootOnly;
}

/** Keeps the literal types of a contract (its schemas type the handler). */
export function defineRoute<const C extends RouteContract>(contract: C): C {
  return contract;
}

/** Every request, whatever the route: URL and header guards, load shedding, the last resort. */
const SHELL_ERRORS: readonly ErrorDefinition[] = [
  CoreErrors.credentials_in_url,
  CoreErrors.host_not_allowed,
  CoreErrors.query_too_long,
  CoreErrors.header_too_large,
  CoreErrors.overloaded,
  CoreErrors.internal_error,
];

/**
 * Refusals at the edge before a request is routed (src/http/edge.ts): the request line or
 * framing, a target holding bytes a URL may not (or, with a path parameter, not valid
 * percent-encoded UTF-8), the Host, an expectation, a deadline, a shutdown. Any operation's
 * request can earn them.
 */
const EDGE_ERRORS: readonly ErrorDefinition[] = [
  CoreErrors.malformed_request,
  CoreErrors.malformed_url,
  CoreErrors.bad_framing,
  CoreErrors.invalid_host,
  CoreErrors.request_timeout,
  CoreErrors.expectation_failed,
  CoreErrors.shutting_down,
];

/** Methods whose request body the shell parses (strict JSON, size, media type). */
const BODY_ERRORS: readonly ErrorDefinition[] = [
  CoreErrors.malformed_json,
  CoreErrors.empty_body,
  CoreErrors.bad_framing,
  CoreErrors.body_too_large,
  CoreErrors.unsupported_media_type,
];

/** Every error code an operation can answer with, grouped by status (ascending). */
export function errorsOf(contract: RouteContract): Map<number, ErrorDefinition[]> {
  const all = [...contract.errors, ...SHELL_ERRORS, ...EDGE_ERRORS];
  if (contract.method !== 'GET') all.push(...BODY_ERRORS);
  if ((contract.querystring && !contract.queryCheckedByOperation) || (contract.body && !contract.bodyCheckedByOperation)) all.push(CoreErrors.invalid_request);
  const byStatus = new Map<number, ErrorDefinition[]>();
  for (const def of all) {
    const list = byStatus.get(def.status) ?? [];
    if (!list.includes(def)) list.push(def);
    byStatus.set(def.status, list);
  }
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}

/** The static part of a path up to its first parameter, e.g. `/packets` for `/packets/:id/:file`. */
function staticPrefix(url: string): string {
  const segments: string[] = [];
  for (const segment of url.split('/').slice(1)) {
    if (segment.startsWith(':') || segment === '*') break;
    segments.push(segment);
  }
  return '/' + segments.join('/');
}

/**
 * The namespace an operation's path claims at the root mount, for unknown-path answers:
 * `/v1/market` for `/v1/market/assess`, the path itself when it has fewer than three
 * segments (`/v1/capabilities`, `/funding/sources.md`).
 */
export function namespaceOf(url: string): string {
  const prefix = staticPrefix(url);
  const segments = prefix.split('/').slice(1);
  return segments.length >= 3 ? '/' + segments.slice(0, -1).join('/') : prefix;
}
