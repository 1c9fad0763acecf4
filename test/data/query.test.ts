import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pageOf, type PageParams } from '../../src/data/query.js';
import { RowTable } from '../../src/data/row-table.js';
import { makeRow, schemaUnavailableRow, sourceUnavailableRow, type EvidenceRow, type RowBase } from '../../src/data/row.js';

const base: RowBase = { dataset: 'money_markets', product: 'Seiche', source_url: 'https://x.test/', retrieved_at: null, content_sha256: null, transport_status: 'complete' };
const params = (p: Partial<PageParams> = {}): PageParams => ({ entity: '', startDate: '', endDate: '', limit: 200, offset: 0, ...p });

function rows(): EvidenceRow[] {
  return [
    makeRow(base, { entity_id: 'US-USD', entity_name: 'US dollar', as_of: '2026-09-23', value: 1 }),
    makeRow(base, { entity_id: 'EA-EUR', entity_name: 'Euro', as_of: '2026-09-24T10:00:00Z', value: 2 }),
    makeRow(base, { entity_id: 'GB-GBP', entity_name: 'STRASSE ß', as_of: '2026-09-25', value: 3 }),
    makeRow(base, { entity_id: 'CN', entity_name: null, as_of: null }),
    schemaUnavailableRow(base),
    sourceUnavailableRow({ ...base, transport_status: 'unavailable' }, 'http_status: the source answered HTTP 503'),
  ];
}

describe('query pipeline', () => {
  it('collects diagnostics from all rows before any filter and never pages them', () => {
    const page = pageOf(RowTable.of(rows()), params({ entity: 'usd', limit: 1 }));
    expect(page.results.map((r) => r.entity_id)).toEqual(['US-USD']);
    expect(page.diagnostics.map((r) => r.availability)).toEqual(['schema_unavailable', 'source_unavailable']);
  });

  it('keeps placeholders in the results, subject to the filters', () => {
    expect(pageOf(RowTable.of(rows()), params()).total_rows).toBe(6);
    expect(pageOf(RowTable.of(rows()), params({ entity: 'seiche' })).results.map((r) => r.availability)).toEqual(['schema_unavailable', 'source_unavailable']);
  });

  it('matches the entity as a trimmed, case-folded substring of the id or the name', () => {
    const ids = (entity: string) => pageOf(RowTable.of(rows()), params({ entity })).results.map((r) => r.entity_id);
    expect(ids('  usd\t')).toEqual(['US-USD']);
    expect(ids('DOLLAR')).toEqual(['US-USD']);
    expect(ids('strasse')).toEqual(['GB-GBP']); // ß folds to ss, as Python's casefold does
    expect(ids('')).toHaveLength(6);
    expect(ids('   ')).toHaveLength(6);
  });

  it('filters dates on the first ten characters of as_of, inclusively, dropping undated rows', () => {
    const ids = (startDate: string, endDate: string) => pageOf(RowTable.of(rows()), params({ startDate, endDate })).results.map((r) => r.entity_id);
    expect(ids('2026-09-24', '')).toEqual(['EA-EUR', 'GB-GBP']);
    expect(ids('', '2026-09-24')).toEqual(['US-USD', 'EA-EUR']);
    expect(ids('2026-09-24', '2026-09-24')).toEqual(['EA-EUR']);
  });

  it('pages with next_offset only while rows remain, and an offset past the end is an empty last page', () => {
    const p1 = pageOf(RowTable.of(rows()), params({ limit: 4 }));
    expect([p1.returned_rows, p1.next_offset, p1.total_rows]).toEqual([4, 4, 6]);
    const p2 = pageOf(RowTable.of(rows()), params({ limit: 4, offset: 4 }));
    expect([p2.returned_rows, p2.next_offset]).toEqual([2, null]);
    const p3 = pageOf(RowTable.of(rows()), params({ offset: 50 }));
    expect([p3.returned_rows, p3.next_offset, p3.total_rows, p3.results]).toEqual([0, null, 6, []]);
  });

  it('hands out copies: changing a page never changes the next one', () => {
    const indexed = RowTable.of(rows());
    const first = pageOf(indexed, params());
    first.results[0].value = 999;
    first.diagnostics[0].context = 'changed';
    const second = pageOf(indexed, params());
    expect(second.results[0].value).toBe(1);
    expect(second.diagnostics[0].context).not.toBe('changed');
  });

  it('keeps exactly the rows the filters name, never skipping or repeating one when paging (property)', () => {
    const rowArb = fc.record({
      id: fc.constantFrom('US-USD', 'usd-x', 'EUR', 'Ünï', null),
      name: fc.constantFrom('US dollar', 'Straße', 'Ünï', null),
      day: fc.option(fc.integer({ min: 1, max: 9 }).map((d) => `2026-01-0${d}`), { nil: null }),
    });
    fc.assert(fc.property(
      fc.array(rowArb, { maxLength: 60 }),
      fc.constantFrom('', 'usd', 'ü', 'x', 'ss', 'dollar'),
      fc.option(fc.integer({ min: 1, max: 9 }), { nil: null }),
      fc.option(fc.integer({ min: 1, max: 9 }), { nil: null }),
      fc.integer({ min: 1, max: 13 }),
      (specs, entity, from, to, limit) => {
        const all = specs.map((s, i) => makeRow(base, { entity_id: s.id, entity_name: s.name, as_of: s.day, value: i }));
        const indexed = RowTable.of(all);
        const startDate = from === null ? '' : `2026-01-0${from}`;
        const endDate = to === null ? '' : `2026-01-0${to}`;
        // Among the drawn texts, only ß folds differently from lower-casing.
        const fold = (text: string | null) => (text ?? '').toLowerCase().replaceAll('ß', 'ss');
        const expected = all.filter((r) => (entity === '' || fold(r.entity_id).includes(entity) || fold(r.entity_name).includes(entity))
          && (startDate === '' || (r.as_of !== null && r.as_of >= startDate))
          && (endDate === '' || (r.as_of !== null && r.as_of <= endDate)));
        const seen: number[] = [];
        let offset = 0;
        let total: number | undefined;
        for (;;) {
          const page = pageOf(indexed, params({ entity, startDate, endDate, limit, offset }));
          total ??= page.total_rows;
          expect(page.total_rows).toBe(total);
          expect(page.returned_rows).toBe(page.results.length);
          expect(page.returned_rows).toBeLessThanOrEqual(limit);
          seen.push(...page.results.map((r) => r.value!));
          if (page.next_offset === null) {
            expect(offset + limit).toBeGreaterThanOrEqual(page.total_rows);
            break;
          }
          expect(page.next_offset).toBe(offset + limit);
          expect(page.next_offset).toBeLessThan(page.total_rows);
          offset = page.next_offset;
        }
        expect(seen).toEqual(expected.map((r) => r.value));
        expect(total).toBe(expected.length);
      },
    ), { numRuns: 300 });
  });
});
