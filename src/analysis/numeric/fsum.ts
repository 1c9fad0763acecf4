// Correctly rounded summation with CPython's math.fsum semantics (Shewchuk's
// non-overlapping partials, then the half-even fix-up across the top two partials).
// Parity matters: digests and reported statistics are compared with the Python service.

/** Raised where CPython raises OverflowError("intermediate overflow in fsum"). */
export class FsumOverflowError extends RangeError {
  constructor() {
    super('intermediate overflow in fsum');
    this.name = 'FsumOverflowError';
  }
}

/** Raised where CPython raises ValueError("-inf + inf in fsum"). */
export class FsumInvalidError extends RangeError {
  constructor() {
    super('-inf + inf in fsum');
    this.name = 'FsumInvalidError';
  }
}

/**
 * Incremental exact sum. `add` keeps the running total as a short list of
 * non-overlapping doubles; `value` rounds it once. Reusable via `reset`, so hot loops
 * need not allocate.
 */
export class ExactSum {
  private partials: Float64Array = new Float64Array(32);
  private count = 0;
  private specialSum = 0;
  private infSum = 0;

  reset(): this {
    this.count = 0;
    this.specialSum = 0;
    this.infSum = 0;
    return this;
  }

  add(value: number): void {
    let x = value;
    let p = this.partials;
    let i = 0;
    const n = this.count;
    for (let j = 0; j < n; j++) {
      let y = p[j];
      if (Math.abs(x) < Math.abs(y)) {
        const tmp = x;
        x = y;
        y = tmp;
      }
      const hi = x + y;
      const lo = y - (hi - x);
      if (lo !== 0) p[i++] = lo;
      x = hi;
    }
    if (x !== 0) {
      if (!Number.isFinite(x)) {
        // Either a summand was already inf/nan, or finite summands overflowed.
        if (Number.isFinite(value)) throw new FsumOverflowError();
        if (!Number.isNaN(value)) this.infSum += value;
        this.specialSum += value;
        i = 0;
      } else {
        if (i === p.length) {
          const grown = new Float64Array(p.length * 2);
          grown.set(p);
          this.partials = p = grown;
        }
        p[i++] = x;
      }
    }
    this.count = i;
  }

  value(): number {
    if (this.specialSum !== 0 || Number.isNaN(this.specialSum)) {
      if (Number.isNaN(this.infSum)) throw new FsumInvalidError();
      return this.specialSum;
    }
    const p = this.partials;
    let n = this.count;
    let hi = 0;
    let lo = 0;
    if (n > 0) {
      hi = p[--n];
      // Add from the top until the running sum stops being exact.
      while (n > 0) {
        const x = hi;
        const y = p[--n];
        hi = x + y;
        lo = y - (hi - x);
        if (lo !== 0) break;
      }
      // The dropped tail has the sign of `lo`: if it pushes `lo` past a half ulp,
      // round away from the tie CPython-style.
      if (n > 0 && ((lo < 0 && p[n - 1] < 0) || (lo > 0 && p[n - 1] > 0))) {
        const y = lo * 2;
        const x = hi + y;
        if (y === x - hi) hi = x;
      }
    }
    return hi;
  }
}

const shared = new ExactSum();

/** `math.fsum(values)`; throws FsumOverflowError on intermediate overflow. */
export function fsum(values: ArrayLike<number>): number {
  const acc = shared.reset();
  for (let i = 0; i < values.length; i++) acc.add(values[i]);
  return acc.value();
}

/** `math.fsum(values[start:end])` without slicing. */
export function fsumRange(values: ArrayLike<number>, start: number, end: number): number {
  const acc = shared.reset();
  for (let i = start; i < end; i++) acc.add(values[i]);
  return acc.value();
}

/** `math.fsum(a[i] * b[i] for i in range(len))`, each product rounded first as in Python. */
export function fsumProducts(a: ArrayLike<number>, b: ArrayLike<number>, length: number, aOffset = 0, bOffset = 0): number {
  const acc = shared.reset();
  for (let i = 0; i < length; i++) acc.add(a[aOffset + i] * b[bOffset + i]);
  return acc.value();
}
