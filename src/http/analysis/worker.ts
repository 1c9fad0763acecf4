// A pool worker of group A: answers each AnalysisJob message with its JobOutcome.
import { parentPort } from 'node:worker_threads';
import { runJob, type AnalysisJob, type JobOutcome } from './job.js';

const port = parentPort;
if (!port) throw new Error('the analysis worker runs only as a worker thread');
port.on('message', (job: AnalysisJob) => {
  const outcome: JobOutcome = runJob(job);
  // A body that owns its whole ArrayBuffer moves without a copy; a slice of Buffer's shared
  // pool (small bodies) is copied instead.
  const body = outcome.ok ? outcome.body : undefined;
  if (body && body.byteOffset === 0 && body.byteLength === body.buffer.byteLength) port.postMessage(outcome, [body.buffer as ArrayBuffer]);
  else port.postMessage(outcome);
});
