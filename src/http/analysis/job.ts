// One group A request from its body bytes to its response bytes: strict JSON reading,
// schema validation, the computation and the Python-compatible encoding. The same function
// runs in a pool worker (analysis/worker.ts) or, with the pool turned off, on the event
// loop, so both paths give the same bytes. Failures cross the thread boundary as plain
// data and become the same registry errors on the other side.
import { AppError, type ErrorDefinition } from '../../core/errors.js';
import { encodePythonBodyBytes, JsonSyntaxError, parseStrictJson } from '../../core/json.js';
import { runAnalysisToolEncoded } from '../../analysis/tools/dispatch.js';
import { ANALYSIS_BODY } from '../../analysis/validate.js';

export interface AnalysisJob {
  /** The tool name (market_assessment, ab_test, …). */
  tool: string;
  bytes: Uint8Array;
}

export type JobFailure =
  | { kind: 'app'; code: string; status: number; message: string; path?: string; headers: Record<string, string> }
  | { kind: 'json'; message: string; offset: number }
  | { kind: 'internal'; message: string; stack?: string };

/**
 * When each step of a job ended, in milliseconds since the epoch at sub-millisecond
 * resolution (comparable across threads): the benchmark's split per operation.
 */
export interface JobTiming {
  started: number;
  /** The strict JSON reader is done. */
  read: number;
  /** Validation and the computation (the request digest included) are done. */
  computed: number;
  /** The response bytes are encoded. */
  ended: number;
}

export type JobOutcome = ({ ok: true; body: Uint8Array } | { ok: false; failure: JobFailure }) & { timing: JobTiming };

/** Milliseconds since the epoch at sub-millisecond resolution, comparable across threads. */
export const epochMs = (): number => performance.timeOrigin + performance.now();

/**
 * Runs one job to its response bytes or a failure that can cross a thread boundary.
 * `releaseBytes`, when given, is handed the body once the reader is done with it (read or
 * refused): nothing later looks at the bytes.
 */
export function runJob(job: AnalysisJob, releaseBytes?: (bytes: Uint8Array) => void): JobOutcome {
  const timing: JobTiming = { started: epochMs(), read: NaN, computed: NaN, ended: NaN };
  try {
    let parsed: unknown;
    try {
      parsed = parseStrictJson(job.bytes, ANALYSIS_BODY);
    } finally {
      releaseBytes?.(job.bytes);
    }
    timing.read = epochMs();
    const body = runAnalysisToolEncoded(job.tool, parsed, (result) => {
      timing.computed = epochMs();
      return encodePythonBodyBytes(result);
    });
    timing.ended = epochMs();
    return { ok: true, body, timing };
  } catch (error) {
    timing.ended = epochMs();
    return { ok: false, failure: describeFailure(error), timing };
  }
}

function describeFailure(error: unknown): JobFailure {
  if (error instanceof AppError) {
    return { kind: 'app', code: error.code, status: error.status, message: error.message, path: error.path, headers: error.headers };
  }
  if (error instanceof JsonSyntaxError) return { kind: 'json', message: error.message, offset: error.offset };
  const e = error instanceof Error ? error : new Error(String(error));
  return { kind: 'internal', message: e.message, stack: e.stack };
}

/** The error a failed job raises on the event loop, resolved to the same response as in-thread. */
export function failureError(failure: JobFailure): Error {
  if (failure.kind === 'app') {
    const def: ErrorDefinition = { code: failure.code, status: failure.status, meaning: failure.message, group: 'analysis' };
    return new AppError(def, failure.message, { path: failure.path, headers: failure.headers });
  }
  if (failure.kind === 'json') {
    const error = new JsonSyntaxError('', failure.offset);
    error.message = failure.message;
    return error;
  }
  const error = new Error(failure.message);
  if (failure.stack) error.stack = failure.stack;
  return error;
}
