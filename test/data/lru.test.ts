// The weighted LRU behind the data group's caches: least recently used goes first, and an
// entry heavier than the whole budget is dropped, or (oversizedSlots) kept outside the budget.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { WeightedLru } from '../../src/data/lru.js';

const weigh = (v: number) => v;

describe('WeightedLru', () => {
  it('evicts the least recently used entries until the total fits the budget', () => {
    const lru = new WeightedLru<string, number>(10, weigh);
    lru.set('a', 4);
    lru.set('b', 4);
    expect(lru.get('a')).toBe(4); // a is now the most recent
    lru.set('c', 4);
    expect(lru.get('b')).toBeUndefined();
    expect([lru.get('a'), lru.get('c')]).toEqual([4, 4]);
  });

  it('drops an entry heavier than the budget by default, keeping the others', () => {
    const lru = new WeightedLru<string, number>(10, weigh);
    lru.set('a', 3);
    lru.set('big', 11);
    expect(lru.get('big')).toBeUndefined();
    expect(lru.get('a')).toBe(3);
  });

  it('with oversized slots keeps the most recently used oversized entries beside the others, whatever comes after', () => {
    const lru = new WeightedLru<string, number>(10, weigh, { oversizedSlots: 2 });
    lru.set('a', 3);
    lru.set('big', 11);
    expect([lru.get('a'), lru.get('big')]).toEqual([3, 11]);
    // Small entries coming and going do not push it out…
    for (const k of ['b', 'c', 'd', 'e']) lru.set(k, 5);
    expect(lru.get('big')).toBe(11);
    // …a second oversized one joins it, and a third pushes out the least recently used.
    lru.set('bigger', 12);
    expect([lru.get('big'), lru.get('bigger')]).toEqual([11, 12]);
    lru.set('biggest', 13);
    expect([lru.get('big'), lru.get('bigger'), lru.get('biggest')]).toEqual([undefined, 12, 13]);
    // Set again within the budget, it becomes an ordinary entry.
    lru.set('bigger', 2);
    expect(lru.get('bigger')).toBe(2);
  });

  it('holds at most the budget, plus at most its oversized slots', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3 }), fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 1, max: 15 })), { maxLength: 40 }), (slots, ops) => {
        const lru = new WeightedLru<number, number>(10, weigh, { oversizedSlots: slots });
        const model = new Map<number, number>();
        for (const [key, weight] of ops) {
          lru.set(key, weight);
          model.set(key, weight);
          const held = [...model.keys()].filter((k) => lru.get(k) !== undefined);
          const big = held.filter((k) => model.get(k)! > 10);
          const total = held.filter((k) => model.get(k)! <= 10).reduce((n, k) => n + model.get(k)!, 0);
          expect(held.includes(key)).toBe(weight <= 10 || slots > 0);
          expect(big.length).toBeLessThanOrEqual(slots);
          expect(total).toBeLessThanOrEqual(10);
        }
      }),
    );
  });
});
