// A small least-recently-used map bounded by a caller-defined weight (bytes, rows).
export interface LruOptions {
  /**
   * Keep one entry heavier than the whole budget, outside it, instead of dropping it: the
   * newest such entry stays until a newer one replaces it (or it is set again smaller),
   * and the other entries share the budget as before. For values that are dear to rebuild
   * and bounded elsewhere: a snapshot's rows, whose size the source caps bound, are read
   * page after page, and rebuilding them for every page cost a whole projection each time.
   */
  keepOversized?: boolean;
}

export class WeightedLru<K, V> {
  private readonly map = new Map<K, { value: V; weight: number }>();
  /** The weight of every entry but the oversized one. */
  private total = 0;
  private oversized: { key: K; value: V } | undefined;

  constructor(
    private readonly budget: number,
    private readonly weigh: (value: V) => number,
    private readonly options: LruOptions = {},
  ) {}

  get(key: K): V | undefined {
    if (this.oversized !== undefined && this.oversized.key === key) return this.oversized.value;
    const entry = this.map.get(key);
    if (!entry) return undefined;
    this.map.delete(key);
    this.map.set(key, entry);
    return entry.value;
  }

  set(key: K, value: V): void {
    const weight = this.weigh(value);
    const old = this.map.get(key);
    if (old) {
      this.total -= old.weight;
      this.map.delete(key);
    }
    if (this.oversized !== undefined && this.oversized.key === key) this.oversized = undefined;
    if (weight > this.budget) {
      if (this.options.keepOversized) this.oversized = { key, value };
      return;
    }
    this.map.set(key, { value, weight });
    this.total += weight;
    for (const [k, entry] of this.map) {
      if (this.total <= this.budget) break;
      this.map.delete(k);
      this.total -= entry.weight;
    }
  }
}
