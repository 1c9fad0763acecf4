// A job hands its body back once the reader is done with it, so the worker can free the
// memory at once; the answer does not depend on the bytes staying readable after that.
import { describe, expect, it } from 'vitest';
import { runJob, type JobOutcome } from '../../src/http/analysis/job.js';
import { releaseNow } from '../../src/platform/release.js';
import { seriesRequest } from '../helpers/analysis-requests.js';

const owned = (text: string) => {
  const bytes = new Uint8Array(Buffer.byteLength(text));
  Buffer.from(text).copy(bytes);
  return bytes;
};

const answer = (outcome: JobOutcome) => (outcome.ok ? Buffer.from(outcome.body).toString() : outcome.failure);

describe('a job releases its body after reading it', () => {
  it('answers the same bytes when the body is emptied right after the read', () => {
    const text = JSON.stringify(seriesRequest({ series: 3, points: 96, allFields: true }));
    const kept = runJob({ tool: 'spectral_assessment', bytes: owned(text) });
    const bytes = owned(text);
    const released: Uint8Array[] = [];
    const freed = runJob({ tool: 'spectral_assessment', bytes }, (b) => {
      released.push(b);
      releaseNow(b);
    });
    expect(kept.ok).toBe(true);
    expect(answer(freed)).toEqual(answer(kept));
    expect(released).toHaveLength(1);
    expect(released[0]).toBe(bytes);
    expect(bytes.byteLength).toBe(0);
  });

  it('releases a body the reader refuses, once, and still reports where it failed', () => {
    const bytes = owned('{"series": [1, 2,, 3]}');
    let calls = 0;
    const outcome = runJob({ tool: 'market_assessment', bytes }, (b) => {
      calls++;
      releaseNow(b);
    });
    expect(calls).toBe(1);
    expect(bytes.byteLength).toBe(0);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.failure).toMatchObject({ kind: 'json', offset: 17 });
  });

  it('releases a body whose request the schema refuses', () => {
    const bytes = owned('{"series": []}');
    let calls = 0;
    const outcome = runJob({ tool: 'market_assessment', bytes }, () => calls++);
    expect(calls).toBe(1);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.failure.kind).toBe('app');
  });
});
