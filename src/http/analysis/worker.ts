// A pool worker of group A: answers each AnalysisJob message with its JobOutcome.
import { parentPort } from 'node:worker_threads';
import { runJob, type AnalysisJob, type JobOutcome } from './job.js';
import { ANALYSIS_THREAD_NICENESS, lowerThreadPriority } from '../../platform/thread-priority.js';
import { releaseNow } from '../../platform/release.js';
import { transferListOf } from '../../platform/worker-pool.js';

const port = parentPort;
if (!port) throw new Error('the analysis worker runs only as a worker thread');
// Interactive reads on the event loop win the CPU over analyses (best effort, Linux).
lowerThreadPriority(ANALYSIS_THREAD_NICENESS);

// The body is this thread's (transferred or copied to it): its memory goes once it is read,
// not when a collection finds it (by then a major one: the read promotes it).
port.on('message', (job: AnalysisJob) => {
  const outcome: JobOutcome = runJob(job, releaseNow);
  port.postMessage(outcome, outcome.ok ? transferListOf(outcome.body) : undefined);
});
