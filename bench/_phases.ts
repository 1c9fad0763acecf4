// Where the time of one analysis request goes, measured inside the server: its arrival
// (onRequest), the body received, the job's timeline from the pool (the diagnostics
// channel of src/http/analysis/offload.ts: hand-off, strict reading, validation with the
// computation and digest, encoding, hand-back) and the response written (onResponse).
// Requests are expected one at a time (the load benchmark's analysis table).
import diagnostics from 'node:diagnostics_channel';
import type { FastifyInstance } from 'fastify';
import type { JobTimeline } from '../src/http/analysis/offload.js';

/** Milliseconds per phase of one request. */
export interface AnalysisPhases {
  url: string;
  receive: number;
  /** Body received to job submitted: hooks, route handler. */
  route: number;
  toWorker: number;
  read: number;
  compute: number;
  encode: number;
  fromWorker: number;
  send: number;
  server: number;
}

export const PHASE_NAMES = ['receive', 'route', 'toWorker', 'read', 'compute', 'encode', 'fromWorker', 'send', 'server'] as const;

const clock = () => performance.timeOrigin + performance.now();

/** Records the phases of each analysis request `app` answers; the returned list fills up. */
export function recordAnalysisPhases(app: FastifyInstance): AnalysisPhases[] {
  const out: AnalysisPhases[] = [];
  const arrived = new WeakMap<object, { at: number; received?: number }>();
  let last: JobTimeline | undefined;
  diagnostics.subscribe('evidence-desk:analysis-job', (message) => {
    last = message as JobTimeline;
  });
  app.addHook('onRequest', async (request) => {
    arrived.set(request.raw, { at: clock() });
  });
  app.addHook('preValidation', async (request) => {
    const a = arrived.get(request.raw);
    if (a) a.received = clock();
  });
  app.addHook('onResponse', async (request) => {
    const a = arrived.get(request.raw);
    const t = last;
    last = undefined;
    if (!a?.received || !t || t.submitted < a.received) return;
    const end = clock();
    out.push({
      url: request.url, receive: a.received - a.at, route: t.submitted - a.received, toWorker: t.started - t.submitted, read: t.read - t.started, compute: t.computed - t.read,
      encode: t.ended - t.computed, fromWorker: t.settled - t.ended, send: end - t.settled, server: end - a.at,
    });
  });
  return out;
}
