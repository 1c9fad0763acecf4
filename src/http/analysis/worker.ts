// A pool worker of group A: answers each AnalysisJob message with its JobOutcome.
import { parentPort } from 'node:worker_threads';
import { runJob, type AnalysisJob, type JobOutcome } from './job.js';
import { ANALYSIS_THREAD_NICENESS, lowerThreadPriority } from '../../platform/thread-priority.js';

const port = parentPort;
if (!port) throw new Error('the analysis worker runs only as a worker thread');
// Interactive reads on the event loop win the CPU over analyses (best effort, Linux).
lowerThreadPriority(ANALYSIS_THREAD_NICENESS);
port.on('message', (job: AnalysisJob) => {
  const outcome: JobOutcome = runJob(job);
  // A body that owns its whole ArrayBuffer moves without a copy; a slice of Buffer's shared
  // pool (small bodies) is copied instead.
  const body = outcome.ok ? outcome.body : undefined;
  if (body && body.byteOffset === 0 && body.byteLength === body.buffer.byteLength) port.postMessage(outcome, [body.buffer as ArrayBuffer]);
  else port.postMessage(outcome);
});
