import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { currentThreadTid, lowerThreadPriority, type PriorityOutcome } from '../../src/platform/thread-priority.js';

interface Report { outcome: PriorityOutcome; tid: number | undefined; kernelNiceness: number | undefined }

function runWorker(niceness: number): Promise<Report> {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href;
  const file = new URL('./fixtures/priority-worker.ts', import.meta.url).href;
  const bootstrap = `import { register } from ${JSON.stringify(tsx)}; register(); await import(${JSON.stringify(file)});`;
  const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(bootstrap)}`), { workerData: { niceness } });
  return new Promise<Report>((resolve, reject) => {
    worker.once('message', (m) => resolve(m as Report));
    worker.once('error', reject);
  }).finally(() => worker.terminate());
}

const linux = process.platform === 'linux' && fs.existsSync('/proc/thread-self');

describe('lowerThreadPriority', () => {
  it('leaves the main thread alone and says so', () => {
    const before = os.getPriority();
    expect(lowerThreadPriority(10)).toEqual({ applied: false, reason: 'the main thread keeps its priority' });
    expect(os.getPriority()).toBe(before);
  });

  it.runIf(linux)('finds the main thread as the process id on Linux', () => {
    expect(currentThreadTid()).toBe(process.pid);
  });

  it.runIf(linux)('lowers only the calling worker thread, and reports its task id and niceness', async () => {
    const mainBefore = os.getPriority(process.pid);
    const report = await runWorker(Math.max(mainBefore, 10));
    const target = Math.max(mainBefore, 10);
    expect(report.tid).toBeDefined();
    expect(report.tid).not.toBe(process.pid);
    expect(report.outcome).toEqual({ applied: true, tid: report.tid, niceness: target, before: mainBefore });
    expect(report.kernelNiceness).toBe(target);
    expect(os.getPriority(process.pid)).toBe(mainBefore);
  });

  it.runIf(linux)('never raises a thread above the priority it already has', async () => {
    const mainBefore = os.getPriority(process.pid);
    const report = await runWorker(mainBefore - 5);
    expect(report.outcome).toMatchObject({ applied: true, niceness: mainBefore, before: mainBefore });
  });

  it.skipIf(linux)('does nothing where threads have no priority of their own', async () => {
    const report = await runWorker(10);
    expect(report.outcome.applied).toBe(false);
  });
});
