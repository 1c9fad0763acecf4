import { describe, expect, it } from 'vitest';
import { FloatArena } from '../../../src/analysis/numeric/float-arena.js';

describe('FloatArena', () => {
  it('hands out zeroed views that never overlap, whatever sizes are asked for', () => {
    const arena = new FloatArena();
    const sizes = [0, 1, 5, 1000, 64, 3000, 70_000, 7, 2048, 2048, 2048];
    const views = sizes.map((n) => arena.take(n));
    views.forEach((view, k) => {
      expect(view).toHaveLength(sizes[k]);
      expect(view.every((x) => x === 0)).toBe(true);
      view.fill(k + 1);
    });
    views.forEach((view, k) => expect(view.every((x) => x === k + 1)).toBe(true));
  });
});
