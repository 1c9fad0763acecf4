// A store that cannot answer is a 503 for the data routes, never a 500: each function of
// the data group's storage access (store.ts) passes the storage layer's own answers
// (busy, faulted) through and turns any other failure — a closed pool, a lost server, a
// refused statement — into `storage_unavailable` with Retry-After.
import { AppError, CoreErrors, isAppError } from '../core/errors.js';

export const STORE_RETRY_AFTER_SECONDS = 5;

export function storeUnavailable(cause: unknown): AppError {
  return new AppError(CoreErrors.storage_unavailable, 'the data store could not be read or written; retry later', {
    headers: { 'retry-after': String(STORE_RETRY_AFTER_SECONDS) },
    cause,
  });
}

export function guarded<A extends unknown[], R>(work: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return async (...args: A) => {
    try {
      return await work(...args);
    } catch (error) {
      throw isAppError(error) ? error : storeUnavailable(error);
    }
  };
}
