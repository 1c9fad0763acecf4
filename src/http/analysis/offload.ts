// Where group A computations run: on a pool of worker threads sized by
// `analysisWorkers` (the cores less one by default, so the event loop keeps a core) with a queue of `analysisQueue` waiting
// requests, so a funding or data read never waits behind a large analysis. A full queue
// is answered at once with 503 `overloaded` and Retry-After, never held in memory: a body
// that states its length reserves its room before it is read (`reserve`), so under
// overload the refused requests' bodies are never buffered.
// With `analysisWorkers: 0` the same job runs on the event loop.
import diagnostics from 'node:diagnostics_channel';
import { AppError, CoreErrors } from '../../core/errors.js';
import type { Config } from '../../core/config.js';
import { createWorkerPool, PoolFullError, transferListOf, type Reservation, type WorkerPool } from '../../platform/worker-pool.js';
import { moduleFile } from '../../platform/runtime.js';
import { epochMs, failureError, type AnalysisJob, type JobOutcome, type JobTiming } from './job.js';

/**
 * Waiting job bytes (bodies queued, or reserved while they arrive) beyond which a new request is refused:
 * three maximum-size bodies (7.3 MB each) besides the running one, so four clients posting
 * them at once are all served, about a second of work for one worker (the first waiting
 * body is admitted whatever its size). Each waiting body is resident on the event loop:
 * under clients posting maximum bodies without pause, 32 MiB (four waiting) put a demo
 * process at 199–207 MiB peak and 24 MiB at 192–199. 16 MiB (two) measured 170–188, but four
 * clients that retry at once then spent the event loop's time reading refused 7 MB bodies:
 * half the analyses answered, funding p99 20–40 ms.
 */
export const MAX_QUEUED_BYTES = 24 * 1024 * 1024;

/**
 * Each worker's V8 heap. Node's defaults let an idle worker keep up to ~2 GB of old
 * generation and 16 MB semi-spaces, so its heap grew by ~100 MiB of garbage over a few
 * maximum requests before a full collection; a worker runs one job at a time, and the
 * largest (market or spectral, 32×2048, every optional field) needs 24–32 MB of old
 * generation (measured: 24 MB runs out, 32 MB suffices), so 128 MB leaves a 4× margin
 * while collecting early. Young generation 12 MB = 4 MB semi-spaces, as `npm start`
 * gives the main thread (--max-semi-space-size=4).
 */
export const WORKER_HEAP = { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 12 } as const;

/**
 * How long a request body that stated its length keeps its reserved room while it arrives:
 * a maximum body (7.3 MB) needs ~6 s at 10 Mbit/s and milliseconds on a LAN. A body slower
 * than this is admitted (or refused) when complete, as one without Content-Length is, so a
 * client trickling bytes holds the queue for at most this long.
 */
export const RESERVATION_MS = 5_000;

/**
 * Each finished job's timeline, for whoever subscribes (the load benchmark): when it was
 * submitted, its steps on the worker (or inline) and when its outcome was back on the event
 * loop; milliseconds since the epoch. Publishing costs nothing without a subscriber.
 */
export const jobTimeline = diagnostics.channel('evidence-desk:analysis-job');

export interface JobTimeline extends JobTiming {
  tool: string;
  bytes: number;
  submitted: number;
  settled: number;
}

function publish(tool: string, bytes: number, submitted: number, outcome: JobOutcome): void {
  if (!jobTimeline.hasSubscribers) return;
  const timeline: JobTimeline = { tool, bytes, submitted, ...outcome.timing, settled: epochMs() };
  jobTimeline.publish(timeline);
}

export interface AnalysisRunner {
  /**
   * The encoded response body, or throws the registry error the job raised. The caller
   * hands `bytes` over: a buffer that owns its whole ArrayBuffer moves to the worker
   * without a copy and is empty here afterwards.
   */
  run(tool: string, bytes: Uint8Array, reservation?: Reservation): Promise<Uint8Array>;
  /**
   * Room for a request body of `bytes` before it is read; throws 503 `overloaded` when the
   * pool would refuse it. Release it if the body never reaches `run`.
   */
  reserve(bytes: number): Reservation;
}

const UNBOUNDED: Reservation = { bytes: 0, release: () => undefined };

function overloaded(): AppError {
  return new AppError(CoreErrors.overloaded, 'every analysis worker is busy and the waiting queue is full; retry shortly', { headers: { 'retry-after': '1' } });
}

// One pool per process and setting, shared by every app built in it (tests build many):
// its threads start with the first analysis and hold the process only while busy.
const pools = new Map<string, WorkerPool<AnalysisJob, JobOutcome>>();

/** Stops the process's analysis workers (their next use starts new ones). */
export async function closeAnalysisPools(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map((p) => p.close()));
}

export function createAnalysisRunner(config: Pick<Config, 'analysisWorkers' | 'analysisQueue'>, inline: (job: AnalysisJob) => JobOutcome): AnalysisRunner {
  const settle = (outcome: JobOutcome): Uint8Array => {
    if (outcome.ok) return outcome.body;
    throw failureError(outcome.failure);
  };
  if (config.analysisWorkers === 0) {
    return {
      run: async (tool, bytes) => {
        const submitted = epochMs();
        const outcome = inline({ tool, bytes });
        publish(tool, bytes.byteLength, submitted, outcome);
        return settle(outcome);
      },
      // On the event loop nothing waits in a queue: there is nothing to reserve.
      reserve: () => UNBOUNDED,
    };
  }
  const key = `${config.analysisWorkers}/${config.analysisQueue}`;
  const poolOf = () => {
    let pool = pools.get(key);
    if (!pool) {
      pool = createWorkerPool<AnalysisJob, JobOutcome>({
        file: new URL(`./${moduleFile('worker')}`, import.meta.url),
        size: config.analysisWorkers,
        maxQueue: config.analysisQueue,
        maxQueueBytes: MAX_QUEUED_BYTES,
        resourceLimits: WORKER_HEAP,
        reservationMs: RESERVATION_MS,
      });
      pools.set(key, pool);
    }
    return pool;
  };
  return {
    async run(tool, bytes, reservation) {
      const pool = poolOf();
      const submitted = epochMs();
      const size = bytes.byteLength;
      try {
        const outcome = await pool.run({ tool, bytes }, size, transferListOf(bytes), reservation);
        publish(tool, size, submitted, outcome);
        return settle(outcome);
      } catch (error) {
        if (error instanceof PoolFullError) throw overloaded();
        throw error;
      }
    },
    reserve(bytes) {
      const reservation = poolOf().reserve(bytes);
      if (!reservation) throw overloaded();
      return reservation;
    },
  };
}
