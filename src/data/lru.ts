// A small least-recently-used map bounded by a caller-defined weight (bytes, rows).
export class WeightedLru<K, V> {
  private readonly map = new Map<K, { value: V; weight: number }>();
  private total = 0;

  constructor(private readonly budget: number, private readonly weigh: (value: V) => number) {}

  get(key: K): V | undefined {
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
    // Something larger than the whole budget is simply not kept.
    if (weight > this.budget) return;
    this.map.set(key, { value, weight });
    this.total += weight;
    for (const [k, entry] of this.map) {
      if (this.total <= this.budget) break;
      this.map.delete(k);
      this.total -= entry.weight;
    }
  }
}
