// Erasure by the key holder: the application row goes, and with it (by cascade) its
// completions and cohorts. Aggregate counters never referenced it and stay.

import { AppError } from '../core/errors.js';
import type { ApplicationContext } from './context.js';
import { ApplicationErrors, STORAGE_RETRY_AFTER_SECONDS } from './errors.js';
import type { RevocationBody } from './schemas.js';

export async function revokeApplication(ctx: ApplicationContext, applicationId: string): Promise<void> {
  try {
    await ctx.storage.db.deleteFrom('applications').where('id', '=', applicationId).execute();
  } catch (error) {
    throw new AppError(ApplicationErrors.application_storage_unavailable, 'the application could not be erased because its store is unavailable; retry later', {
      headers: { 'retry-after': String(STORAGE_RETRY_AFTER_SECONDS) },
      cause: error,
    });
  }
}

/** The 200 body of an erasure. */
export function revocationBody(): RevocationBody {
  return { deleted: true, credential_revoked: true, anonymous_aggregate_counts_retained: true };
}
