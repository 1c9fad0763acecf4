// A small least-recently-used map bounded by a caller-defined weight (bytes, rows).
export interface LruOptions {
  /**
   * How many entries heavier than the whole budget to keep, outside it, instead of dropping
   * them (default none): the most recently used such entries stay, and the other entries
   * share the budget as before. For values that are dear to rebuild and bounded elsewhere:
   * a snapshot's rows, whose size the source caps bound, are read page after page, and
   * rebuilding them for every page cost a whole projection each time. More than one, so two
   * readers of two large snapshots (a pinned one and the current one) do not evict each
   * other on every page.
   */
  oversizedSlots?: number;
}

export class WeightedLru<K, V> {
  private readonly map = new Map<K, { value: V; weight: number }>();
  /** The weight of every entry but the oversized ones. */
  private total = 0;
  /** Oversized entries, least recently used first. */
  private readonly oversized = new Map<K, V>();

  constructor(
    private readonly budget: number,
    private readonly weigh: (value: V) => number,
    private readonly options: LruOptions = {},
  ) {}

  get(key: K): V | undefined {
    const big = this.oversized.get(key);
    if (big !== undefined) {
      this.oversized.delete(key);
      this.oversized.set(key, big);
      return big;
    }
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
    this.oversized.delete(key);
    if (weight > this.budget) {
      const slots = this.options.oversizedSlots ?? 0;
      if (slots <= 0) return;
      this.oversized.set(key, value);
      for (const k of this.oversized.keys()) {
        if (this.oversized.size <= slots) break;
        this.oversized.delete(k);
      }
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
