// Properties of the projections over generated documents: values are the numbers at
// their pointers, and rights labels suppress exactly as specified.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseStrictJson } from '../../src/core/json.js';
import { projectBankRisk } from '../../src/data/projections/bank-risk.js';
import { projectCapitalMarkets } from '../../src/data/projections/capital-markets.js';
import { projectMarketLiquidity } from '../../src/data/projections/market-liquidity.js';
import { projectMoneyMarketHistory } from '../../src/data/projections/money-market-history.js';
import { projectMoneyMarkets } from '../../src/data/projections/money-markets.js';
import type { Projector } from '../../src/data/projections/types.js';
import type { DatasetId } from '../../src/data/datasets.js';
import { inputFor, resolvePointer } from './support.js';

const BLOCKING = ['restricted', 'withheld', 'unavailable', 'not_available', 'denied', 'pending', 'review_required', 'prohibited', 'metadata_only', 'METADATA-ONLY', 'Review Required'];
const HARMLESS = ['allowed', 'permitted', 'AVAILABLE', 'FRESH', 'PARTIAL', 'published'];
const FIELDS = ['availability', 'status', 'redistribution_status', 'rights_status'];

const anyValue = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer({ min: -1_000_000, max: 1_000_000 }),
  fc.constantFrom(0, -0, 0.5, 1e-7, null, true, false, '4.5', 'x'),
);

type Label = { kind: 'none' } | { kind: 'harmless' | 'blocking' | 'derived_only'; field: string; text: string } | { kind: 'forbidden' };
const labelArb: fc.Arbitrary<Label> = fc.oneof(
  { weight: 4, arbitrary: fc.constant<Label>({ kind: 'none' }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('harmless' as const), field: fc.constantFrom(...FIELDS), text: fc.constantFrom(...HARMLESS) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('blocking' as const), field: fc.constantFrom(...FIELDS), text: fc.constantFrom(...BLOCKING) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('derived_only' as const), field: fc.constantFrom('redistribution_status', 'rights_status'), text: fc.constantFrom('derived_only', 'Derived-Only') }) },
  { weight: 1, arbitrary: fc.constant<Label>({ kind: 'forbidden' }) },
);

function apply(node: Record<string, unknown>, label: Label): Record<string, unknown> {
  if (label.kind === 'forbidden') return { ...node, publication_allowed: false };
  if (label.kind === 'none') return node;
  return { ...node, [label.field]: label.text };
}

const blocks = (labels: Label[], material: 'raw' | 'derived') =>
  labels.some((l) => l.kind === 'blocking' || l.kind === 'forbidden' || (l.kind === 'derived_only' && material === 'raw'));

function run(projector: Projector, dataset: DatasetId, doc: unknown) {
  // Through JSON text and the strict reader, as a retrieval would.
  const parsed = parseStrictJson(JSON.stringify(doc));
  return { parsed, rows: [...projector(inputFor(dataset, parsed))] };
}

function expectValuesAtPointers(parsed: unknown, rows: { value: number | null; source_field: string }[]) {
  for (const row of rows) {
    if (row.value === null) continue;
    const found = resolvePointer(parsed, row.source_field);
    expect(typeof found).toBe('number');
    expect(Object.is(row.value, found) || row.value === found).toBe(true);
  }
}

// Harmless labels keep the publisher's availability text in the way (AVAILABLE etc.), so
// only the benchmark's own availability is fixed here.
const marketArb = fc.record({
  value: anyValue,
  history: fc.array(fc.oneof(fc.tuple(fc.constantFrom('2026-01-01', '2026-01-02'), anyValue), fc.constant(['x']), fc.constant('bad')), { maxLength: 4 }),
  market: labelArb,
  benchmark: labelArb,
});

describe('projection properties', () => {
  it('money markets and history: a value is the number at its pointer, and only when no node on its path withholds it', () => {
    fc.assert(fc.property(labelArb, fc.array(marketArb, { minLength: 1, maxLength: 5 }), (docLabel, markets) => {
      const doc = apply({
        schema: 'seiche.global-money-markets.v1',
        markets: markets.map((m, i) => apply({ market_id: `M${i}`, benchmark: apply({ value: m.value, history: m.history }, m.benchmark) }, m.market)),
      }, docLabel);
      for (const [projector, dataset] of [[projectMoneyMarkets, 'money_markets'], [projectMoneyMarketHistory, 'money_market_history']] as const) {
        const { parsed, rows } = run(projector, dataset, doc);
        expectValuesAtPointers(parsed, rows);
        for (const row of rows) {
          const m = markets[Number(row.entity_id!.slice(1))];
          if (blocks([docLabel, m.market, m.benchmark], 'raw')) {
            expect(row.value).toBeNull();
            expect(row.availability).toBe('restricted_or_unavailable');
          }
        }
        if (dataset === 'money_markets') {
          rows.forEach((row, i) => {
            const m = markets[i];
            const finite = typeof m.value === 'number' && Number.isFinite(m.value);
            expect(row.value !== null).toBe(finite && !blocks([docLabel, m.market, m.benchmark], 'raw'));
          });
        }
      }
    }), { numRuns: 300 });
  });

  it('capital markets: both prices are suppressed by any blocked level, derived_only included', () => {
    fc.assert(fc.property(fc.array(labelArb, { minLength: 5, maxLength: 5 }), anyValue, (labels, value) => {
      const [docL, sectionL, riskL, pricesL, nodeL] = labels;
      const doc = apply({
        schema: 'seiche.world-markets.v1',
        capital_markets: apply({ risk_context: apply({ market_prices: apply({ vix: apply({ value, as_of: '2026-01-01' }, nodeL), high_yield_oas: { value: 1 } }, pricesL) }, riskL) }, sectionL),
      }, docL);
      const { parsed, rows } = run(projectCapitalMarkets, 'capital_markets', doc);
      expectValuesAtPointers(parsed, rows);
      const finite = typeof value === 'number' && Number.isFinite(value);
      expect(rows[0].value !== null).toBe(finite && !blocks(labels, 'raw'));
      expect(rows[1].value !== null).toBe(!blocks([docL, sectionL, riskL, pricesL], 'raw'));
    }), { numRuns: 300 });
  });

  it('bank scores and liquidity percentiles: derived_only never suppresses, everything else does', () => {
    fc.assert(fc.property(fc.array(labelArb, { minLength: 3, maxLength: 3 }), anyValue, anyValue, (labels, score, pd) => {
      const [docL, rowL, hazardL] = labels;
      const board = apply({ rows: [apply({ slug: 's', score, hazard: apply({ pd_12m: pd }, hazardL) }, rowL)] }, docL);
      const bank = run(projectBankRisk, 'bank_risk', board);
      expectValuesAtPointers(bank.parsed, bank.rows);
      const open = !blocks(labels, 'derived');
      expect(bank.rows[0].value !== null).toBe(open && typeof score === 'number');
      expect(bank.rows[1].value !== null).toBe(open && typeof pd === 'number');

      const summary = apply({ segment_reports: [apply({ segment: 's', observations: [apply({ measure: 'm', stress_pctl: score }, hazardL)] }, rowL)] }, docL);
      const liquidity = run(projectMarketLiquidity, 'market_liquidity', summary);
      expectValuesAtPointers(liquidity.parsed, liquidity.rows);
      expect(liquidity.rows[0].value !== null).toBe(open && typeof score === 'number');
    }), { numRuns: 300 });
  });
});
