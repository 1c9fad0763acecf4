// A fixed pool of worker threads with a bounded queue, for CPU work that must not hold the
// event loop (group A's analyses). `run` rejects at once with PoolFullError when the queue
// is at its task or byte bound, so memory stays bounded and the caller can answer 503.
//
// A worker that dies fails only the task it was running and is replaced. Workers start on
// the first task, so an instance that never analyses starts no threads.
//
// Running from the TypeScript sources (tsx, vitest), a worker first registers tsx from a
// small bootstrap module; a compiled build starts the .js file directly.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';

/**
 * The transfer list that moves `bytes` to another thread without a copy: its ArrayBuffer when
 * the view owns all of it; undefined for a slice of a shared buffer (Buffer's pool for
 * small bodies), which must be copied instead.
 */
export function transferListOf(bytes: Uint8Array): ArrayBuffer[] | undefined {
  const { buffer } = bytes;
  return buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === buffer.byteLength ? [buffer] : undefined;
}

export class PoolFullError extends Error {
  constructor() {
    super('the worker pool queue is full');
    this.name = 'PoolFullError';
  }
}

export interface PoolOptions {
  /** The worker module (a .ts file under tsx, a .js file in a build). */
  file: URL;
  size: number;
  /** Tasks that may wait for a worker; more are refused. */
  maxQueue: number;
  /** Bytes of task input that may wait; more are refused (a task alone is always admitted). */
  maxQueueBytes: number;
  /** V8 heap sizes of each worker (Node's defaults when absent). */
  resourceLimits?: ResourceLimits;
  /**
   * How long a reservation holds its room (ms; unbounded when absent). A task whose input
   * takes longer to arrive is admitted by `run` like one that reserved nothing, so slow
   * senders cannot keep the room from everyone else.
   */
  reservationMs?: number;
}

/**
 * Room held for a task whose input is still arriving (a request body being received): it
 * counts as a waiting task of its size, so admission is decided before the bytes are read.
 */
export interface Reservation {
  readonly bytes: number;
  /** Gives the room back; does nothing once released or used by `run`. */
  release(): void;
}

export interface WorkerPool<In, Out> {
  /**
   * Runs `input` on a worker. Buffers listed in `transfer` move to the worker when it
   * starts the task (no copy) and are unusable here from then on. With a live
   * `reservation` the task was admitted already and is queued whatever the load now.
   */
  run(input: In, bytes: number, transfer?: readonly ArrayBuffer[], reservation?: Reservation): Promise<Out>;
  /** Room for a task of `bytes` whose input is on its way, or undefined when `run` would refuse it. */
  reserve(bytes: number): Reservation | undefined;
  /** Tasks waiting for a worker (running ones not included). */
  readonly queued: number;
  close(): Promise<void>;
}

interface Task<In, Out> {
  input: In;
  bytes: number;
  transfer: readonly ArrayBuffer[] | undefined;
  resolve(value: Out): void;
  reject(error: unknown): void;
}

interface Slot<In, Out> {
  worker: Worker;
  task: Task<In, Out> | undefined;
}

function startWorker(file: URL, resourceLimits: ResourceLimits | undefined): Worker {
  if (!file.pathname.endsWith('.ts')) return new Worker(file, { resourceLimits });
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href;
  const bootstrap = `import { register } from ${JSON.stringify(tsx)}; register(); await import(${JSON.stringify(file.href)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(bootstrap)}`), { resourceLimits });
}

export function createWorkerPool<In, Out>(options: PoolOptions): WorkerPool<In, Out> {
  const slots: Slot<In, Out>[] = [];
  const queue: Task<In, Out>[] = [];
  let queuedBytes = 0;
  // Reservations still held (with their expiry timers): tasks on their way, counted as if they were waiting.
  const held = new Map<Reservation, NodeJS.Timeout | undefined>();
  let heldBytes = 0;
  let closed = false;

  const drop = (reservation: Reservation): boolean => {
    if (!held.has(reservation)) return false;
    clearTimeout(held.get(reservation));
    held.delete(reservation);
    heldBytes -= reservation.bytes;
    return true;
  };

  /**
   * Whether a task of `bytes` is admitted: it finds a worker free (counting the tasks
   * queued or on their way ahead of it), or a place in the queue within its count and byte
   * bounds (a task that would wait alone is always admitted).
   */
  const admits = (bytes: number): boolean => {
    const free = options.size - slots.filter((s) => s.task !== undefined).length;
    const ahead = queue.length + held.size;
    if (ahead < free) return true;
    const waitingAhead = ahead - free;
    if (waitingAhead >= options.maxQueue) return false;
    return waitingAhead === 0 || waitingBytes(free) + bytes <= options.maxQueueBytes;
  };

  /**
   * Bytes of the tasks queued or on their way that will wait for a worker: all of them, less
   * the first `free` reservations, which the free workers will take (tasks are queued only
   * while every worker is busy).
   */
  const waitingBytes = (free: number): number => {
    let bytes = queuedBytes + heldBytes;
    let taken = 0;
    for (const reservation of held.keys()) {
      if (taken++ === free) break;
      bytes -= reservation.bytes;
    }
    return bytes;
  };

  const dispatch = (slot: Slot<In, Out>) => {
    const task = queue.shift();
    if (!task) return;
    queuedBytes -= task.bytes;
    slot.task = task;
    // A busy worker keeps the process alive; an idle one does not.
    slot.worker.ref();
    slot.worker.postMessage(task.input, task.transfer);
  };

  const spawn = (): Slot<In, Out> => {
    const slot: Slot<In, Out> = { worker: startWorker(options.file, options.resourceLimits), task: undefined };
    slot.worker.unref();
    slot.worker.on('message', (result: Out) => {
      const task = slot.task;
      slot.task = undefined;
      slot.worker.unref();
      task?.resolve(result);
      dispatch(slot);
    });
    const fail = (error: unknown) => {
      const task = slot.task;
      slot.task = undefined;
      const at = slots.indexOf(slot);
      if (at !== -1) slots.splice(at, 1);
      task?.reject(error instanceof Error ? error : new Error(`an analysis worker stopped (${String(error)})`));
      if (!closed) {
        const replacement = spawn();
        slots.push(replacement);
        dispatch(replacement);
      }
    };
    slot.worker.on('error', fail);
    slot.worker.on('exit', (code) => {
      if (slots.includes(slot)) fail(new Error(`an analysis worker exited with code ${code}`));
    });
    return slot;
  };

  return {
    get queued() {
      return queue.length;
    },
    reserve(bytes) {
      if (closed || !admits(bytes)) return undefined;
      const reservation: Reservation = { bytes, release: () => void drop(reservation) };
      const expiry = options.reservationMs === undefined ? undefined : setTimeout(reservation.release, options.reservationMs).unref();
      held.set(reservation, expiry);
      heldBytes += bytes;
      return reservation;
    },
    run(input, bytes, transfer, reservation) {
      if (closed) return Promise.reject(new Error('the worker pool is closed'));
      while (slots.length < options.size) slots.push(spawn());
      const idle = slots.find((s) => s.task === undefined);
      const admitted = reservation !== undefined && drop(reservation);
      if (!admitted && !admits(bytes)) return Promise.reject(new PoolFullError());
      return new Promise<Out>((resolve, reject) => {
        queue.push({ input, bytes, transfer, resolve, reject });
        queuedBytes += bytes;
        if (idle) dispatch(idle);
      });
    },
    async close() {
      closed = true;
      for (const task of queue.splice(0)) task.reject(new Error('the worker pool is closed'));
      queuedBytes = 0;
      for (const expiry of held.values()) clearTimeout(expiry);
      held.clear();
      heldBytes = 0;
      const all = slots.splice(0);
      for (const slot of all) slot.task?.reject(new Error('the worker pool is closed'));
      await Promise.all(all.map((s) => s.worker.terminate()));
    },
  };
}
