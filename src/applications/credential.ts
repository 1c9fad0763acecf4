// Who is calling: anonymous (no Authorization header) or one enrolled application.
//
// Any Authorization header that is present must name a live key: a malformed, unknown,
// erased or expired key is a 401, and a store that cannot answer is a 503 — the caller is
// never quietly treated as anonymous, and neither outcome can turn into a 304.

import { AppError } from '../core/errors.js';
import { digestsEqual } from '../core/hash.js';
import type { ApplicationContext } from './context.js';
import { utcDate } from './days.js';
import { ApplicationErrors, STORAGE_RETRY_AFTER_SECONDS } from './errors.js';
import { isKeyExpired, KEY_EXPIRY_DAYS } from './retention.js';
import type { TrafficClass } from './tables.js';
import { parseAuthorization, tokenDigest } from './token.js';

export type Caller =
  | { kind: 'anonymous' }
  | { kind: 'application'; applicationId: string; trafficClass: TrafficClass };

const CHALLENGE = { 'www-authenticate': 'Bearer' };

function identityUnavailable(cause: unknown): AppError {
  return new AppError(ApplicationErrors.identity_storage_unavailable, 'the application key could not be checked because its store is unavailable; retry later', {
    headers: { 'retry-after': String(STORAGE_RETRY_AFTER_SECONDS) },
    cause,
  });
}

export async function resolveCaller(ctx: ApplicationContext, authorization: string | string[] | undefined): Promise<Caller> {
  const parsed = parseAuthorization(authorization);
  if (parsed.kind === 'absent') return { kind: 'anonymous' };
  if (parsed.kind === 'malformed') {
    throw new AppError(ApplicationErrors.invalid_credential, 'the Authorization header must be "Bearer " followed by an application token (fe_ and 43 base64url characters)', {
      headers: CHALLENGE,
    });
  }
  const digest = tokenDigest(parsed.token);
  let row: { id: string; token_hash: string; last_seen_day: string; traffic_class: TrafficClass } | undefined;
  try {
    row = await ctx.storage.db
      .selectFrom('applications')
      .select(['id', 'token_hash', 'last_seen_day', 'traffic_class'])
      .where('token_hash', '=', digest)
      .executeTakeFirst();
  } catch (error) {
    throw identityUnavailable(error);
  }
  // The lookup is by digest; the constant-time comparison keeps the final decision from
  // depending on how much of a stored digest matched.
  const known = row !== undefined && digestsEqual(row.token_hash, digest);
  if (!row || !known) {
    throw new AppError(ApplicationErrors.unknown_credential, 'this application key is not valid here: it was never issued, has been erased, or expired', {
      headers: CHALLENGE,
    });
  }
  const today = utcDate(ctx.clock());
  if (isKeyExpired(row.last_seen_day, today)) {
    // Purge on use; the key is refused whether or not the delete succeeds.
    await ctx.storage.db.deleteFrom('applications').where('id', '=', row.id).execute().catch(() => undefined);
    throw new AppError(ApplicationErrors.unknown_credential, `this application key expired after ${KEY_EXPIRY_DAYS} days without use`, {
      headers: CHALLENGE,
    });
  }
  return { kind: 'application', applicationId: row.id, trafficClass: row.traffic_class };
}
