// Turning failures into responses. Each group keeps its upstream error key (`error` for
// the analysis group, `detail` for the funding and data groups) and every body carries
// the registry `code`; nothing unexpected ever leaves as a dropped socket.

import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, CoreErrors, type ErrorDefinition, isAppError } from '../core/errors.js';
import { JsonSyntaxError } from '../core/json.js';
import { QueryValidationError } from '../core/query-problems.js';
import type { ErrorShape } from './error-schemas.js';

export type { ErrorShape };

export interface ErrorBodyInput {
  code: string;
  message: string;
  path?: string;
}

/**
 * The body for one error in the shape a group's clients expect. `sample`: the instance
 * serves bundled documents (README "Modes"), so evidence-shaped bodies say so as its other
 * responses do; analysis bodies keep the upstream shape (they never involve bundled data).
 */
export function errorBody(shape: ErrorShape, input: ErrorBodyInput, sample = false): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (shape === 'analysis') body.error = input.message;
  else if (shape === 'evidence') body.detail = input.message;
  else {
    // A path no group owns: both keys, so either kind of client can read it.
    body.error = input.message;
    body.detail = input.message;
  }
  body.code = input.code;
  if (input.path !== undefined) body.path = input.path;
  if (sample && shape !== 'analysis') body.sample = true;
  return body;
}

// Fastify's own error codes, mapped onto the registry.
const FASTIFY_CODES: Record<string, ErrorDefinition> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: CoreErrors.unsupported_media_type,
  FST_ERR_CTP_INVALID_TYPE: CoreErrors.unsupported_media_type,
  FST_ERR_CTP_BODY_TOO_LARGE: CoreErrors.body_too_large,
  FST_ERR_CTP_EMPTY_JSON_BODY: CoreErrors.empty_body,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: CoreErrors.bad_framing,
  FST_ERR_CTP_EMPTY_TYPE: CoreErrors.unsupported_media_type,
};

/** What a body sent without a JSON Content-Type is told (Fastify's refusal, and a body-less POST's). */
export const UNSUPPORTED_MEDIA_TYPE_MESSAGE = 'send the request body as application/json';

const FASTIFY_MESSAGES: Record<string, string> = {
  unsupported_media_type: UNSUPPORTED_MEDIA_TYPE_MESSAGE,
  body_too_large: 'the request body is larger than this service accepts',
  empty_body: 'this operation needs a JSON request body',
  bad_framing: 'the request framing (Content-Length / Transfer-Encoding) is not acceptable',
};

/**
 * The raw body of a POST whose route parses bodies as bytes. Fastify runs a body parser
 * only when a Content-Type is sent, so a POST with neither Content-Type nor body reaches
 * its handler without one. A missing Content-Type counts as text/plain (as upstream's
 * group A does): refused like a body sent without one, 415.
 */
export function requireRawBody(request: FastifyRequest): Uint8Array {
  if (request.body instanceof Uint8Array) return request.body;
  throw new AppError(CoreErrors.unsupported_media_type, UNSUPPORTED_MEDIA_TYPE_MESSAGE);
}

/**
 * What a JSON body parser does with a body of `length` bytes before it reads one: `skip`
 * hands the handler no body, `read` parses it, an AppError refuses it. A path or method
 * nothing serves is answered 404/405 whatever its body holds (only the body limit, checked
 * while receiving, comes first). Only a POST needs a body: a DELETE or OPTIONS that names a
 * JSON type but sends nothing, as some clients do, is not refused for it.
 */
export function screenJsonBody(request: FastifyRequest, length: number): 'skip' | 'read' | AppError {
  if (request.is404) return 'skip';
  if (length > 0) return 'read';
  if (request.method !== 'POST') return 'skip';
  return new AppError(CoreErrors.empty_body, 'this operation needs a non-empty JSON request body');
}

export interface ResolvedError {
  status: number;
  code: string;
  message: string;
  path?: string;
  headers: Record<string, string>;
  unexpected: boolean;
}

export function resolveError(error: unknown): ResolvedError {
  if (isAppError(error)) {
    return { status: error.status, code: error.code, message: error.message, path: error.path, headers: error.headers, unexpected: false };
  }
  if (error instanceof JsonSyntaxError) {
    return { status: 400, code: CoreErrors.malformed_json.code, message: `invalid JSON body: ${error.message}`, headers: {}, unexpected: false };
  }
  const fe = error as FastifyError;
  const mapped = fe && typeof fe.code === 'string' ? FASTIFY_CODES[fe.code] : undefined;
  if (mapped) {
    return { status: mapped.status, code: mapped.code, message: FASTIFY_MESSAGES[mapped.code] ?? mapped.meaning, headers: {}, unexpected: false };
  }
  if (fe && Array.isArray(fe.validation)) {
    const first = fe.validation[0];
    const where = fe.validationContext ?? 'request';
    const field = first?.instancePath ? `${where}${first.instancePath}` : where;
    return {
      status: CoreErrors.invalid_request.status,
      code: CoreErrors.invalid_request.code,
      message: `${field}: ${first?.message ?? 'invalid value'}`,
      path: first?.instancePath || undefined,
      headers: {},
      unexpected: false,
    };
  }
  if (fe && typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    // A client error raised by the framework that has no entry above: its own text is not ours to publish.
    return { status: CoreErrors.bad_request.status, code: CoreErrors.bad_request.code, message: CoreErrors.bad_request.meaning, headers: {}, unexpected: false };
  }
  return { status: 500, code: CoreErrors.internal_error.code, message: 'internal error; the failure has been logged', headers: {}, unexpected: true };
}

/** An error as it is answered: its status, extra headers and body in the group's shape. */
export interface ErrorAnswer {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
  /** A fault of the service rather than of the request: to be logged. */
  unexpected: boolean;
}

export function errorAnswer(shape: ErrorShape, error: unknown, sample = false): ErrorAnswer {
  if (error instanceof QueryValidationError) {
    // Every invalid parameter listed, as the upstream framework lists them.
    const body: Record<string, unknown> = error.body();
    if (sample) body.sample = true;
    return { status: error.status, headers: error.headers, body, unexpected: false };
  }
  const resolved = resolveError(error);
  return { status: resolved.status, headers: resolved.headers, body: errorBody(shape, resolved, sample), unexpected: resolved.unexpected };
}

export function sendError(reply: FastifyReply, shape: ErrorShape, error: unknown, sample = false): FastifyReply {
  const answer = errorAnswer(shape, error, sample);
  if (answer.unexpected) reply.log.error({ err: error }, 'unexpected failure while handling a request');
  for (const [name, value] of Object.entries(answer.headers)) reply.header(name, value);
  return reply
    .code(answer.status)
    .header('content-type', 'application/json; charset=utf-8')
    .send(JSON.stringify(answer.body));
}

/** An error handler for one group's scope. */
export function groupErrorHandler(shape: ErrorShape, sample = false) {
  return (error: unknown, _request: FastifyRequest, reply: FastifyReply) => sendError(reply, shape, error, sample);
}

export { AppError };
