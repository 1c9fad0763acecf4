// Zeroed Float64Array views carved from shared buffers. A typed array of a few KiB gets
// its own off-heap store, and a large request wants over a hundred such columns (clock
// keys, interval values): allocating them one by one cost more than filling them.

/** Views per shared buffer: sized by the request, so small requests stay small. */
const VIEWS_PER_BUFFER = 16;
const MIN_BUFFER = 1024;
const MAX_VIEW = 1 << 16;

export class FloatArena {
  private buffer = new Float64Array(0);
  private used = 0;

  /** A fresh zeroed array of n doubles (a view: its `buffer` is shared). */
  take(n: number): Float64Array {
    if (n > MAX_VIEW) return new Float64Array(n);
    if (this.used + n > this.buffer.length) {
      this.buffer = new Float64Array(Math.max(VIEWS_PER_BUFFER * n, MIN_BUFFER));
      this.used = 0;
    }
    const view = this.buffer.subarray(this.used, this.used + n);
    this.used += n;
    return view;
  }
}
