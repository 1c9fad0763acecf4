// Building results the way the reference prints them: every computed value is a Python
// float (so an integral one prints `200.0`), counters are ints, and members keep the order
// they were added in even when a caller-chosen key looks like an array index or is
// `__proto__`.
import { isArrayIndexKey, isFloatToken, markFloat, setKeyOrder } from '../../core/json.js';

export type PyObject = Record<string, unknown>;

export class PyRecord {
  private readonly out: PyObject = {};
  private readonly keys: string[] = [];
  private ordered = false;

  /**
   * Any JSON value (string, boolean, null, or an already built object or list). Keys must be
   * distinct; ab_test guarantees that for its labels before building its result.
   */
  set(key: string, value: unknown): this {
    if (key === '__proto__') {
      // A data property: plain assignment would set the prototype instead.
      Object.defineProperty(this.out, key, { value, enumerable: true, writable: true, configurable: true });
    } else {
      this.out[key] = value;
    }
    this.keys.push(key);
    if (!this.ordered && isArrayIndexKey(key)) this.ordered = true;
    return this;
  }

  /** A float, or null. */
  float(key: string, value: number | null): this {
    this.set(key, value);
    if (value !== null && Number.isInteger(value)) markFloat(this.out, key);
    return this;
  }

  int(key: string, value: number): this {
    if (!Number.isSafeInteger(value)) throw new Error(`result member ${key} is not an integer`);
    return this.set(key, value);
  }

  floats(key: string, values: readonly number[]): this {
    return this.set(key, floatList(values));
  }

  build(): PyObject {
    if (this.ordered) setKeyOrder(this.out, this.keys);
    return this.out;
  }
}

/** A list of floats (integral members print as `3.0`). */
export function floatList(values: readonly number[]): number[] {
  const out = values.slice();
  for (let i = 0; i < out.length; i++) if (Number.isInteger(out[i])) markFloat(out, i);
  return out;
}

/**
 * A request number as the reference sees it after `float(v)`: the integer token `-0` is the
 * int 0, so it becomes 0.0, while the float token `-0.0` stays negative.
 */
export function entryFloats(list: readonly number[]): number[] {
  const out = list.slice();
  for (let i = 0; i < out.length; i++) if (Object.is(out[i], -0) && !isFloatToken(list, i)) out[i] = 0;
  return out;
}

export function entryFloat(container: object, key: string): number {
  const v = (container as Record<string, number>)[key];
  return Object.is(v, -0) && !isFloatToken(container, key) ? 0 : v;
}
