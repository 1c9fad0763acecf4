// What a message to a worker thread can move instead of copy. A worker pool task's
// `bytes` (a request body of up to several MB) is moved when its view spans its whole
// ArrayBuffer: structured cloning would copy it on the sending thread, the event loop.
// The sender must not read `bytes` after posting: its view is then empty.

/**
 * The ArrayBuffers of a message's `bytes` member that can move to another thread without
 * a copy: only one the view spans whole (a slice of Buffer's shared pool must be copied,
 * or the other slices would go with it). The sender's view is empty afterwards.
 */
export function transferListOf(message: unknown): ArrayBuffer[] {
  const bytes = typeof message === 'object' && message !== null ? (message as { bytes?: unknown }).bytes : undefined;
  if (!(bytes instanceof Uint8Array)) return [];
  const buffer = bytes.buffer;
  if (!(buffer instanceof ArrayBuffer) || bytes.byteOffset !== 0 || bytes.byteLength !== buffer.byteLength || bytes.byteLength === 0) return [];
  return [buffer];
}
