// Freeing a buffer's memory at once instead of at the garbage collection that finds it dead.
//
// V8 frees an ArrayBuffer's memory only when a collection finds its object dead, and it
// counts that memory too loosely to collect early: receiving one 7 MB body leaves ~110
// socket chunks of 64 KB behind, and under a few concurrent uploads the event loop held
// ~30 MiB of them (measured: 32 MiB of dead chunks beside 28 MiB of live bodies). Node 20
// has no ArrayBuffer.prototype.transfer, but posting a buffer to a closed MessagePort
// detaches it and drops the message, which frees the memory (~3 µs per 64 KB chunk).
// test/platform/release.test.ts proves both halves on the running Node.
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { transferListOf } from './worker-pool.js';

let sink: MessagePort | undefined;

function closedPort(): MessagePort {
  if (sink === undefined) {
    const channel = new MessageChannel();
    channel.port2.close();
    sink = channel.port1;
    sink.unref();
  }
  return sink;
}

/**
 * Frees the memory behind `bytes` now, when `bytes` views all of its ArrayBuffer (a
 * slice of a shared buffer, such as Buffer's pool, is never touched) and the caller is
 * its last user: `bytes` and every other view of that buffer are empty afterwards.
 * Returns whether it freed anything.
 */
export function releaseNow(bytes: Uint8Array): boolean {
  // The same ownership test that decides whether a body may move to a worker.
  const whole = transferListOf(bytes);
  if (whole === undefined || whole[0].byteLength === 0) return false;
  try {
    closedPort().postMessage(null, whole);
  } catch {
    // An ArrayBuffer Node marked untransferable: it stays for the collector.
    return false;
  }
  return whole[0].byteLength === 0;
}
