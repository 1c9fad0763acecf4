// Enrollment: a client that explicitly consents to measurement gets a key, once.
//
// The allowances are checked and the row inserted inside one serialized section, so
// concurrent enrollments — on one instance or many sharing PostgreSQL — can never
// exceed them. Expired keys are purged first: only retained keys use up the allowance.

import { AppError, isAppError } from '../core/errors.js';
import { utcDate, secondsToNextUtcMidnight } from './days.js';
import type { ApplicationContext } from './context.js';
import { ApplicationErrors, STORAGE_RETRY_AFTER_SECONDS } from './errors.js';
import { keyExpiryCutoff, USAGE_RETENTION_DAYS } from './retention.js';
import type { EnrollmentBody } from './schemas.js';
import type { TrafficClass } from './tables.js';
import { newApplicationId, newToken, tokenDigest } from './token.js';

/** Largest enrollment body accepted (the consent body is 29 bytes). */
export const ENROLLMENT_BODY_LIMIT = 1024;
export const ENROLLMENTS_PER_UTC_DAY = 100;
export const RETAINED_APPLICATIONS_LIMIT = 10_000;
/** Longest Retry-After for the total allowance: a key may be erased at any moment. */
const TOTAL_ALLOWANCE_RETRY_CAP_SECONDS = 3600;

export const ENROLL_LOCK = 'applications:enroll';

/** True only for exactly `{"measurement_consent": true}`. */
export function isExactConsent(body: unknown): boolean {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return false;
  const keys = Object.keys(body);
  return keys.length === 1 && keys[0] === 'measurement_consent' && (body as Record<string, unknown>).measurement_consent === true;
}

export interface Enrollment {
  applicationId: string;
  /** Plaintext token: returned to the client once, never stored. */
  token: string;
  classification: Extract<TrafficClass, 'unverified' | 'internal'>;
}

export interface EnrollOptions {
  /** The enrollment request carried an exclusion header (operator or test traffic). */
  excluded: boolean;
}

export async function enroll(ctx: ApplicationContext, options: EnrollOptions): Promise<Enrollment> {
  const now = ctx.clock();
  const today = utcDate(now);
  const token = newToken();
  const applicationId = newApplicationId();
  const classification = options.excluded ? 'internal' : 'unverified';
  try {
    await ctx.storage.serialized(ENROLL_LOCK, async (trx) => {
      await trx.deleteFrom('applications').where('last_seen_day', '<', keyExpiryCutoff(today)).execute();
      const total = await trx.selectFrom('applications').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      if (Number(total.n) >= RETAINED_APPLICATIONS_LIMIT) {
        const wait = Math.min(TOTAL_ALLOWANCE_RETRY_CAP_SECONDS, secondsToNextUtcMidnight(now));
        throw new AppError(ApplicationErrors.enrollment_allowance_reached, 'the service already holds as many application keys as it retains; an erased or expired key frees a place', {
          headers: { 'retry-after': String(wait) },
        });
      }
      const todays = await trx
        .selectFrom('applications')
        .where('created_day', '=', today)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      if (Number(todays.n) >= ENROLLMENTS_PER_UTC_DAY) {
        throw new AppError(ApplicationErrors.enrollment_allowance_reached, 'today\'s allowance of new application keys is used up; it renews at the next UTC midnight', {
          headers: { 'retry-after': String(secondsToNextUtcMidnight(now)) },
        });
      }
      await trx
        .insertInto('applications')
        .values({
          id: applicationId,
          token_hash: tokenDigest(token),
          created_day: today,
          last_seen_day: today,
          traffic_class: classification,
          evidence_sha256: null,
        })
        .execute();
    });
  } catch (error) {
    if (isAppError(error)) throw error;
    throw new AppError(ApplicationErrors.application_storage_unavailable, 'the application store could not record the enrollment; retry later', {
      headers: { 'retry-after': String(STORAGE_RETRY_AFTER_SECONDS) },
      cause: error,
    });
  }
  return { applicationId, token, classification };
}

/** The 201 body, keys in the upstream order. */
export function enrollmentBody(e: Enrollment): EnrollmentBody {
  return {
    application_id: e.applicationId,
    token: e.token,
    token_type: 'Bearer',
    classification: e.classification,
    independent_ownership_verified: false,
    quota: 'same_bounded_public_service',
    completion_retention_days: USAGE_RETENTION_DAYS,
    credential_expiry: '180_days_without_accepted_use',
    erase: 'DELETE /v1/applications/current',
  };
}
