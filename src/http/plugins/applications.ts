// Application keys over HTTP: enrollment (POST /v1/applications) and erasure by the key
// holder (DELETE /v1/applications/current). Checks run in the documented order:
// Origin → media type → size → exact consent body → allowances → store, and for
// erasure Origin → credential → key present → store.

import type { FastifyPluginAsync, FastifyRequest, onRequestHookHandler } from 'fastify';
import { AppError, CoreErrors } from '../../core/errors.js';
import type { GroupPluginOptions } from '../deps.js';
import { ApplicationErrors } from '../../applications/errors.js';
import { enroll, enrollmentBody, isExactConsent } from '../../applications/enroll.js';
import { resolveCaller } from '../../applications/credential.js';
import { revocationBody, revokeApplication } from '../../applications/revoke.js';
import { hasExclusionHeader } from '../../applications/traffic.js';

/**
 * Browser origins, besides this service's own pages (its /docs), that may create or erase
 * keys. Empty: the project publishes no separate documentation site. Requests without an
 * Origin header (scripts, the job, curl) are always allowed.
 */
export const KEY_MANAGEMENT_ORIGINS: readonly string[] = [];

export const ENROLLMENT_BODY_LIMIT = 1024;

/** True when Origin is absent, listed, or names the host this request was sent to. */
export function originMayManageKeys(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  if (typeof origin !== 'string') return false;
  if (KEY_MANAGEMENT_ORIGINS.includes(origin)) return true;
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

const originGuard: onRequestHookHandler = async (request) => {
  if (!originMayManageKeys(request)) {
    throw new AppError(ApplicationErrors.origin_not_allowed, 'application keys cannot be created or erased from this origin');
  }
};

// The text before the first ';' must be exactly application/json (case-sensitive,
// no trimming), checked before the body is read so 415 precedes 413.
const mediaTypeGuard: onRequestHookHandler = async (request) => {
  const type = request.headers['content-type'];
  if (typeof type !== 'string' || type.split(';', 1)[0] !== 'application/json') {
    throw new AppError(CoreErrors.unsupported_media_type, 'send the consent body as application/json');
  }
};

const EnrollmentResponse = {
  type: 'object',
  properties: {
    application_id: { type: 'string', pattern: '^[0-9a-f]{32}$' },
    token: { type: 'string', pattern: '^fe_[A-Za-z0-9_-]{43}$', description: 'Shown once; only its SHA-256 is stored.' },
    token_type: { type: 'string', const: 'Bearer' },
    classification: { type: 'string', enum: ['unverified', 'internal'] },
    independent_ownership_verified: { type: 'boolean' },
    quota: { type: 'string' },
    completion_retention_days: { type: 'integer' },
    credential_expiry: { type: 'string' },
    erase: { type: 'string' },
  },
} as const;

const RevocationResponse = {
  type: 'object',
  properties: {
    deleted: { type: 'boolean' },
    credential_revoked: { type: 'boolean' },
    anonymous_aggregate_counts_retained: { type: 'boolean' },
  },
} as const;

export const applicationsPlugin: FastifyPluginAsync<GroupPluginOptions> = async (app, { deps, hideFromDocs }) => {
  const ctx = { storage: deps.storage, clock: deps.clock };

  app.post(
    '/v1/applications',
    {
      bodyLimit: ENROLLMENT_BODY_LIMIT,
      onRequest: [originGuard, mediaTypeGuard],
      schema: {
        hide: hideFromDocs,
        tags: ['funding evidence: application keys'],
        operationId: 'enrollApplication',
        summary: 'Create an application key (explicit measurement consent)',
        description:
          'Send exactly {"measurement_consent": true} as application/json (at most 1024 bytes). The token in the answer is shown once; ' +
          'send it as "Authorization: Bearer <token>" on latest, changes and history. At most 100 new keys per UTC date and 10,000 retained keys (429 with Retry-After).',
        response: { 201: EnrollmentResponse },
      },
    },
    async (request, reply) => {
      if (!isExactConsent(request.body)) {
        throw new AppError(ApplicationErrors.consent_required, 'enrollment needs exactly {"measurement_consent": true}');
      }
      const enrollment = await enroll(ctx, { excluded: hasExclusionHeader(request.headers) });
      reply.header('cache-control', 'no-store');
      return reply.code(201).send(enrollmentBody(enrollment));
    },
  );

  app.delete(
    '/v1/applications/current',
    {
      onRequest: [originGuard],
      schema: {
        hide: hideFromDocs,
        tags: ['funding evidence: application keys'],
        operationId: 'eraseCurrentApplication',
        summary: 'Erase the application whose key authorizes this request',
        description: 'Deletes the key and its completions; anonymous aggregate counters remain. The key is refused from then on.',
        response: { 200: RevocationResponse },
      },
    },
    async (request, reply) => {
      const caller = await resolveCaller(ctx, request.headers.authorization);
      if (caller.kind === 'anonymous') {
        throw new AppError(ApplicationErrors.credential_required, 'send the key of the application to erase in the Authorization header');
      }
      await revokeApplication(ctx, caller.applicationId);
      reply.header('cache-control', 'no-store');
      return reply.code(200).send(revocationBody());
    },
  );
};
