// Why a job run failed. The code is printed (never the token); the message goes to stderr.

export type JobFailure =
  | 'usage'
  | 'lock_held'
  | 'token_file'
  | 'cursor_invalid'
  | 'local_packet_invalid'
  | 'transport'
  | 'http_status'
  | 'redirect_refused'
  | 'response_too_large'
  | 'latest_invalid'
  | 'changes_invalid'
  | 'latest_kept_changing'
  | 'download_invalid'
  | 'observations_mismatch'
  | 'io';

export class JobError extends Error {
  readonly failure: JobFailure;

  constructor(failure: JobFailure, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'JobError';
    this.failure = failure;
  }
}

/** The one fixed sentence a failed run prints; details go to stderr. */
export const FAILURE_REASON = 'Evidence could not be fetched or verified; the previous cursor and files are unchanged. Retry later.';
