// releaseNow frees a buffer's memory at once on the running Node (the closed-port transfer
// it relies on is not a documented promise, so this is where a change would show), and it
// never touches memory other code may share.
import { describe, expect, it } from 'vitest';
import { releaseNow } from '../../src/platform/release.js';

const MiB = 1024 * 1024;
const arrayBufferBytes = () => process.memoryUsage().arrayBuffers;

async function settled<T>(read: () => T, ok: (v: T) => boolean): Promise<T> {
  let value = read();
  for (let i = 0; i < 100 && !ok(value); i++) {
    await new Promise((r) => setTimeout(r, 10));
    value = read();
  }
  return value;
}

describe('releaseNow', () => {
  it('frees the memory of a buffer it owns whole, without a garbage collection, and empties every view of it', async () => {
    releaseNow(new Uint8Array(16)); // the sink port is made and closed on first use
    await new Promise((r) => setTimeout(r, 20));
    const bytes = new Uint8Array(64 * MiB).fill(1);
    const other = new Uint8Array(bytes.buffer, 100, 10);
    const before = arrayBufferBytes();
    expect(releaseNow(bytes)).toBe(true);
    expect(bytes.byteLength).toBe(0);
    expect(other.byteLength).toBe(0);
    // `bytes` is still referenced here, so no collection could have freed it.
    const after = await settled(arrayBufferBytes, (n) => before - n >= 60 * MiB);
    expect(before - after).toBeGreaterThanOrEqual(60 * MiB);
    expect(bytes.buffer.byteLength).toBe(0);
  });

  it('leaves alone what it does not own whole: a slice, a pooled small Buffer, shared or empty memory', () => {
    const shared = new Uint8Array(64).fill(1);
    const part = shared.subarray(8, 16);
    expect(releaseNow(part)).toBe(false);
    expect(part.byteLength).toBe(8);
    expect(shared[0]).toBe(1);

    const pooled = Buffer.from('abc');
    expect(pooled.buffer.byteLength).toBeGreaterThan(pooled.length);
    expect(releaseNow(pooled)).toBe(false);
    expect(pooled.toString()).toBe('abc');
    expect(Buffer.from('def').toString()).toBe('def');

    expect(releaseNow(new Uint8Array(new SharedArrayBuffer(8)))).toBe(false);
    expect(releaseNow(new Uint8Array(0))).toBe(false);
  });
});
