// Application keys over HTTP: enrollment (POST /v1/applications) and erasure by the key
// holder (DELETE /v1/applications/current). Checks run in the documented order:
// Origin → media type → size → exact consent body → allowances → store, and for
// erasure Origin → credential → key present → store.

import type { FastifyPluginAsync, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { AppError, CoreErrors } from '../../core/errors.js';
import { ApplicationErrors } from '../../applications/errors.js';
import { enroll, enrollmentBody, ENROLLMENT_BODY_LIMIT, isExactConsent } from '../../applications/enroll.js';
import { resolveCaller } from '../../applications/credential.js';
import { revocationBody, revokeApplication } from '../../applications/revoke.js';
import { hasExclusionHeader } from '../../applications/traffic.js';
import { serveRoute, type GroupPluginOptions } from '../route.js';
import { EnrollApplication, EnrollDataApplication, EraseCurrentApplication, EraseCurrentDataApplication, ForgetBrowserVisitor, RecordBrowserEvent } from '../routes/applications.js';
import { BROWSER_EVENT_BODY_LIMIT, forgetVisitor, parseBrowserEvent, parseForget, recordBrowserEvent } from '../../applications/browser-events.js';
import { noStoreByDefault } from '../cache-default.js';

/**
 * Browser origins, besides this service's own pages (its /docs), that may create or erase
 * keys. Empty: the project publishes no separate documentation site. Requests without an
 * Origin header (scripts, the job, curl) are always allowed.
 */
export const KEY_MANAGEMENT_ORIGINS: readonly string[] = [];

/** True when Origin is absent, listed, or names the host this request was sent to. */
export function originMayManageKeys(request: FastifyRequest): boolean {
  if (request.headers.origin === undefined) return true;
  return isOwnOrListedOrigin(request, KEY_MANAGEMENT_ORIGINS);
}

/** True when Origin is present and is either listed or this service's own origin. */
export function isOwnOrListedOrigin(request: FastifyRequest, listed: readonly string[]): boolean {
  const origin = request.headers.origin;
  if (typeof origin !== 'string') return false;
  if (listed.includes(origin)) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (origin !== `${url.protocol}//${url.host}`) return false;
  const host = request.headers.host;
  return typeof host === 'string' && host.toLowerCase() === url.host;
}

const originGuard: onRequestAsyncHookHandler = async (request) => {
  if (!originMayManageKeys(request)) {
    throw new AppError(ApplicationErrors.origin_not_allowed, 'application keys cannot be created or erased from this origin');
  }
};

// The text before the first ';' must be exactly application/json (case-sensitive,
// no trimming), checked before the body is read so 415 precedes 413.
const mediaTypeGuard: onRequestAsyncHookHandler = async (request) => {
  const type = request.headers['content-type'];
  if (typeof type !== 'string' || type.split(';', 1)[0] !== 'application/json') {
    throw new AppError(CoreErrors.unsupported_media_type, 'send the consent body as application/json');
  }
};

export const applicationsPlugin: FastifyPluginAsync<GroupPluginOptions> = async (app, options) => {
  const { deps } = options;
  const ctx = { storage: deps.storage, clock: deps.clock };
  noStoreByDefault(app);

  // Browser counters need an Origin: only pages of this service (or listed ones) send them.
  const eventOriginGuard: onRequestAsyncHookHandler = async (request) => {
    if (!isOwnOrListedOrigin(request, deps.config.eventOrigins)) {
      throw new AppError(ApplicationErrors.event_origin_not_allowed, 'browser events are accepted only from this service\'s own pages or a listed origin');
    }
  };

  serveRoute(
    app,
    options,
    RecordBrowserEvent,
    async (request, reply) => {
      const event = parseBrowserEvent(request.body);
      const answer = await recordBrowserEvent({ ...ctx, mode: deps.config.mode }, event);
      reply.header('cache-control', 'no-store');
      return reply.code(200).send(answer);
    },
    { bodyLimit: BROWSER_EVENT_BODY_LIMIT, onRequest: [eventOriginGuard, mediaTypeGuard] },
  );

  serveRoute(
    app,
    options,
    ForgetBrowserVisitor,
    async (request, reply) => {
      const answer = await forgetVisitor(ctx, parseForget(request.body));
      reply.header('cache-control', 'no-store');
      return reply.code(200).send(answer);
    },
    { bodyLimit: BROWSER_EVENT_BODY_LIMIT, onRequest: [eventOriginGuard, mediaTypeGuard] },
  );

  const enrollCaller = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!isExactConsent(request.body)) {
      throw new AppError(ApplicationErrors.consent_required, 'enrollment needs exactly {"measurement_consent": true}');
    }
    const enrollment = await enroll(ctx, { excluded: hasExclusionHeader(request.headers) });
    reply.header('cache-control', 'no-store');
    return reply.code(201).send(enrollmentBody(enrollment));
  };
  const eraseCaller = async (request: FastifyRequest, reply: FastifyReply) => {
    const caller = await resolveCaller(ctx, request.headers.authorization);
    if (caller.kind === 'anonymous') {
      throw new AppError(ApplicationErrors.credential_required, 'send the key of the application to erase in the Authorization header');
    }
    await revokeApplication(ctx, caller.applicationId);
    reply.header('cache-control', 'no-store');
    return reply.code(200).send(revocationBody());
  };
  const enrollOptions = { bodyLimit: ENROLLMENT_BODY_LIMIT, onRequest: [originGuard, mediaTypeGuard] };
  const eraseOptions = { onRequest: [originGuard] };
  serveRoute(app, options, EnrollApplication, enrollCaller, enrollOptions);
  serveRoute(app, options, EraseCurrentApplication, eraseCaller, eraseOptions);
  serveRoute(app, options, EnrollDataApplication, enrollCaller, enrollOptions);
  serveRoute(app, options, EraseCurrentDataApplication, eraseCaller, eraseOptions);
};
