// The pool hands a task's listed buffers to the worker without a copy (the caller's view is
// detached once the task starts) and copies everything else; both give the same answer.
import { afterAll, describe, expect, it } from 'vitest';
import { createWorkerPool } from '../../src/platform/worker-pool.js';
import { WORKER_HEAP } from '../../src/http/analysis/offload.js';
import type { AnalysisJob, JobOutcome } from '../../src/http/analysis/job.js';
import { seriesRequest } from '../helpers/analysis-requests.js';

const pool = createWorkerPool<AnalysisJob, JobOutcome>({
  file: new URL('../../src/http/analysis/worker.ts', import.meta.url),
  size: 1,
  maxQueue: 4,
  maxQueueBytes: 64 * 1024 * 1024,
  resourceLimits: WORKER_HEAP,
});
afterAll(() => pool.close());

const bodyOf = (outcome: JobOutcome) => {
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.failure));
  return Buffer.from(outcome.body);
};

describe('worker pool transfers', () => {
  it('moves a transferred body to the worker (detached here) and answers as for a copied one', async () => {
    const text = JSON.stringify(seriesRequest({ series: 3, points: 64, allFields: true }));
    const copied = Buffer.from(text);
    const moved = new Uint8Array(Buffer.byteLength(text));
    Buffer.from(text).copy(moved);
    const a = bodyOf(await pool.run({ tool: 'market_assessment', bytes: copied }, copied.byteLength));
    const b = bodyOf(await pool.run({ tool: 'market_assessment', bytes: moved }, moved.byteLength, [moved.buffer]));
    expect(copied.byteLength).toBe(Buffer.byteLength(text));
    expect(moved.byteLength).toBe(0);
    expect(b.equals(a)).toBe(true);
  });

  it('reports when each step of a job ended, in order', async () => {
    const bytes = Buffer.from(JSON.stringify(seriesRequest({ series: 2, points: 64 })));
    const { timing } = await pool.run({ tool: 'market_assessment', bytes }, bytes.byteLength);
    expect(timing.started).toBeLessThanOrEqual(timing.read);
    expect(timing.read).toBeLessThanOrEqual(timing.computed);
    expect(timing.computed).toBeLessThanOrEqual(timing.ended);
  });
});

describe('worker pool reservations', () => {
  const small = (reservationMs?: number) =>
    createWorkerPool<AnalysisJob, JobOutcome>({
      file: new URL('../../src/http/analysis/worker.ts', import.meta.url),
      size: 1,
      maxQueue: 1,
      maxQueueBytes: 100,
      resourceLimits: WORKER_HEAP,
      reservationMs,
    });

  it('lets a reservation hold its room only for its time, so a slow sender cannot keep it', async () => {
    const p = small(40);
    try {
      const slow = p.reserve(10)!;
      expect(p.reserve(10)).toBeDefined();
      expect(p.reserve(10)).toBeUndefined();
      await new Promise((resolve) => setTimeout(resolve, 120));
      // Both expired: the room is free again, and the late task is admitted like any other.
      expect(p.reserve(10)).toBeDefined();
      const bytes = Buffer.from(JSON.stringify(seriesRequest({ series: 2, points: 64 })));
      expect((await p.run({ tool: 'market_assessment', bytes }, bytes.byteLength, undefined, slow)).ok).toBe(true);
    } finally {
      await p.close();
    }
  });

  it('counts a reserved task as waiting, so admission is decided before its input exists', async () => {
    const p = small();
    try {
      const running = p.reserve(10);
      const waiting = p.reserve(10);
      expect(running).toBeDefined();
      expect(waiting).toBeDefined();
      // One on its way to the worker, one to the queue: the queue is full.
      expect(p.reserve(10)).toBeUndefined();
      running!.release();
      running!.release();
      const again = p.reserve(10);
      expect(again).toBeDefined();
      expect(p.reserve(10)).toBeUndefined();
      waiting!.release();
      again!.release();
      // Bytes: a task that would wait alone is admitted whatever its size; a second one must fit.
      const first = p.reserve(60);
      const alone = p.reserve(500);
      expect(first && alone).toBeDefined();
      first!.release();
      alone!.release();
    } finally {
      await p.close();
    }
  });

  it('does not count as waiting the bytes of a task a free worker will take', async () => {
    const p = createWorkerPool<AnalysisJob, JobOutcome>({
      file: new URL('../../src/http/analysis/worker.ts', import.meta.url),
      size: 1,
      maxQueue: 4,
      maxQueueBytes: 100,
      resourceLimits: WORKER_HEAP,
    });
    try {
      // From idle, three arrive at once: the first will run, so 60 + 40 wait within 100.
      const taken = [p.reserve(60), p.reserve(60), p.reserve(40)];
      expect(taken.every((r) => r !== undefined)).toBe(true);
      expect(p.reserve(1)).toBeUndefined();
      for (const r of taken) r!.release();
    } finally {
      await p.close();
    }
  });

  it('runs a task whose room was reserved even when the pool is full now, and gives the room back once used', async () => {
    const p = small();
    try {
      const bytes = Buffer.from(JSON.stringify(seriesRequest({ series: 2, points: 64 })));
      const mine = p.reserve(bytes.byteLength)!;
      const other = p.reserve(bytes.byteLength)!;
      expect(p.reserve(1)).toBeUndefined();
      const outcome = await p.run({ tool: 'market_assessment', bytes }, bytes.byteLength, undefined, mine);
      expect(outcome.ok).toBe(true);
      // `mine` was used by run (releasing it again changes nothing); `other` still holds its place.
      mine.release();
      expect(p.reserve(1)).toBeDefined();
      expect(p.reserve(1)).toBeUndefined();
      other.release();
    } finally {
      await p.close();
    }
  });
});
