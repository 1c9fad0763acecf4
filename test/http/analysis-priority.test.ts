// The analysis pool's threads run at a lower scheduling priority than the event loop
// (Linux): after an analysis, one thread of this process has the analysis niceness and the
// main thread still has its own.
import fs from 'node:fs';
import os from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { closeAnalysisPools } from '../../src/http/analysis/offload.js';
import { ANALYSIS_THREAD_NICENESS } from '../../src/platform/thread-priority.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { seriesRequest } from '../helpers/analysis-requests.js';

const linux = process.platform === 'linux' && fs.existsSync('/proc/thread-self');

/** The niceness of every thread of this process, from /proc/self/task/<tid>/stat (field 19). */
function threadNiceness(): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of fs.readdirSync('/proc/self/task')) {
    try {
      const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(Number(tid), Number(fields[16]));
    } catch {
      // The thread ended while we listed them.
    }
  }
  return out;
}

const apps: TestApp[] = [];
afterAll(async () => {
  for (const t of apps) await t.close();
  await closeAnalysisPools();
});

describe.runIf(linux)('analysis worker priority', () => {
  it('lowers the worker thread that ran the analysis, never the event loop', async () => {
    const main = os.getPriority(process.pid);
    const expected = Math.max(main, ANALYSIS_THREAD_NICENESS);
    const before = [...threadNiceness().values()].filter((n) => n === expected).length;
    const t = await makeTestApp({ analysisWorkers: 1, analysisQueue: 4 });
    apps.push(t);
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/spectral/assess',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(seriesRequest({ series: 2, points: 64, allFields: true })),
    });
    expect(res.statusCode).toBe(200);
    const after = threadNiceness();
    expect(after.get(process.pid)).toBe(main);
    if (expected !== main) expect([...after.values()].filter((n) => n === expected).length).toBeGreaterThan(before);
  });
});
