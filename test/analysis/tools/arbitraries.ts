// Random schema-valid arguments for the tools that take small requests, and how to write
// them as JSON text (shared by the dispatcher and the MCP/REST parity property tests).
import fc from 'fast-check';

/** Numbers as a caller might write them: ints, plain floats, extremes, signed zeros. */
const number = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: -1000, max: 1000 }) },
  { weight: 4, arbitrary: fc.double({ min: -1e6, max: 1e6, noNaN: true }) },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  { weight: 1, arbitrary: fc.constantFrom(0, -0, 5e-324, -5e-324, 1e308, -1e308, 1.7976931348623157e308) },
);
const positive = fc.oneof(
  fc.integer({ min: 1, max: 1_000_000 }),
  fc.double({ min: 1e-9, max: 1e9, noNaN: true }),
  fc.constantFrom(5e-324, 1e-320, 1e308),
);
const openUnit = fc.oneof(fc.double({ min: 5e-324, max: 0.9999999999999999, noNaN: true }), fc.constantFrom(0.05, 0.1, 0.5, 0.8, 0.999));
const series = (max: number) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.array(number, { minLength: 1, maxLength: max }) },
    { weight: 2, arbitrary: fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: max }) },
    { weight: 1, arbitrary: fc.array(fc.constantFrom(1e308, -1e308, 0), { minLength: 1, maxLength: 30 }) },
  );
const label = fc.oneof(fc.string({ minLength: 1, maxLength: 12 }), fc.constantFrom('A', 'B', '0', '1', '__proto__', 'alpha', 'winner', 'é', '😀'));

const arm = fc
  .tuple(fc.oneof(fc.nat(200), fc.nat(1_000_000), fc.constant(1_000_000_000_000)), fc.double({ min: 0, max: 1, noNaN: true }))
  .map(([n, p]) => [Math.floor(n * p), n] as const);

export const ARGUMENTS: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
  ab_test: fc
    .record({ a: arm, b: arm, alpha: fc.option(openUnit, { nil: undefined }), a_label: fc.option(label, { nil: undefined }), b_label: fc.option(label, { nil: undefined }) })
    .map(({ a, b, ...rest }) => ({ a_successes: a[0], a_total: a[1], b_successes: b[0], b_total: b[1], ...dropUndefined(rest) })),
  did_it_change: fc
    .record({ values: series(120), two_sided: fc.option(fc.boolean(), { nil: undefined }), half_life: fc.option(positive, { nil: undefined }) })
    .map(dropUndefined),
  real_or_sampling: fc
    .tuple(fc.integer({ min: 1, max: 80 }), fc.boolean())
    .chain(([n, mismatch]) =>
      fc.record({
        values: fc.array(number, { minLength: n, maxLength: n }),
        sample_sizes: fc.array(positive, { minLength: mismatch ? 1 : n, maxLength: mismatch ? 90 : n }),
      }),
    ),
  forecast_next: fc.record({ values: series(120), nominal: fc.option(openUnit, { nil: undefined }) }).map(dropUndefined),
  score_forecasts: fc.record({ values: series(80), nominal: fc.option(openUnit, { nil: undefined }) }).map(dropUndefined),
  which_metrics_matter: fc
    .record({
      evidence: fc.dictionary(fc.oneof(fc.string({ maxLength: 6 }), fc.nat(30).map(String), fc.constant('__proto__')), fc.oneof(fc.nat(1000), fc.double({ min: 0, max: 1e308, noNaN: true })), {
        minKeys: 1,
        maxKeys: 20,
      }),
      alpha: fc.option(openUnit, { nil: undefined }),
      valid_evalues: fc.option(fc.boolean(), { nil: undefined }),
    })
    .map(dropUndefined),
  dyson_reference: fc
    .record({
      dimension: fc.option(fc.integer({ min: 2, max: 6 }), { nil: undefined }),
      steps: fc.option(fc.integer({ min: 1, max: 10 }), { nil: undefined }),
      seed: fc.option(fc.nat(), { nil: undefined }),
    })
    .map(dropUndefined),
};

function dropUndefined<T extends Record<string, unknown>>(o: T): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return out;
}

/** JSON text, with a float -0 written as the float token "-0.0" (JSON.stringify would drop its sign). */
export function write(value: Record<string, unknown>): string {
  return JSON.stringify(value, (_key, v) => (Object.is(v, -0) ? '__NEG0__' : v)).replace(/"__NEG0__"/g, '-0.0');
}

