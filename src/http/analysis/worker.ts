// A pool worker of group A: answers each AnalysisJob message with its JobOutcome.
import { parentPort } from 'node:worker_threads';
import { runEncoded, TOOLS } from '../plugins/analysis.js';
import { runJob, type AnalysisJob, type JobOutcome } from './job.js';

const port = parentPort;
if (!port) throw new Error('the analysis worker runs only as a worker thread');
port.on('message', (job: AnalysisJob) => {
  const outcome: JobOutcome = runJob(TOOLS, runEncoded, job);
  if (outcome.ok) port.postMessage(outcome, [outcome.body.buffer as ArrayBuffer]);
  else port.postMessage(outcome);
});
