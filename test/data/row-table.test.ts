// A snapshot's rows kept by column give back exactly the rows put in: every column, in
// order, a number value float-kind, whatever the number of distinct values per column.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeDataBody } from '../../src/data/encode.js';
import { RowTable } from '../../src/data/row-table.js';
import { makeRow, ROW_COLUMNS, schemaUnavailableRow, sourceUnavailableRow, type EvidenceRow, type RowBase } from '../../src/data/row.js';

const bases: RowBase[] = [
  { dataset: 'money_market_history', product: 'Seiche', source_url: 'https://a.test/', retrieved_at: '2026-01-01T00:00:00Z', content_sha256: `sha256:${'a'.repeat(64)}`, transport_status: 'complete' },
  { dataset: 'money_market_history', product: 'Palimpsest', source_url: 'https://b.test/', retrieved_at: null, content_sha256: null, transport_status: 'unavailable' },
];

const text = fc.option(fc.oneof(fc.constantFrom('', 'US-USD', 'Straße', 'ß', '東京', '2026-01-02'), fc.string({ maxLength: 6 })), { nil: null });
const rowArb: fc.Arbitrary<EvidenceRow> = fc.oneof(
  { weight: 8, arbitrary: fc.record({
    base: fc.constantFrom(...bases),
    entity_id: text, entity_name: text, metric: text, unit: text, as_of: text, source_status: text, observation_url: text,
    published_at: text, knowledge_time: text, rights_status: text, context: text,
    availability: fc.constantFrom('published', 'withheld', 'AVAILABLE'),
    source_field: fc.string({ maxLength: 12 }),
    value: fc.option(fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(0, -0, 66, 1e-5, 5e-324)), { nil: null }),
  }).map(({ base, ...fields }) => makeRow(base, fields)) },
  { weight: 1, arbitrary: fc.constantFrom(...bases).map((b) => schemaUnavailableRow(b)) },
  { weight: 1, arbitrary: fc.constantFrom(...bases).map((b) => sourceUnavailableRow(b, 'timeout: no answer')) },
);

describe('a snapshot row table', () => {
  it('gives back every row as put in, columns in order, and writes it as the row itself is written with a float value', () => {
    fc.assert(fc.property(fc.array(rowArb, { maxLength: 80 }), (rows) => {
      const table = RowTable.of(rows);
      expect(table.length).toBe(rows.length);
      rows.forEach((row, i) => {
        const back = table.row(i);
        expect(Object.keys(back)).toEqual([...ROW_COLUMNS]);
        expect(back).toEqual(row);
        expect(Object.is(back.value, row.value)).toBe(true);
        const written = encodeDataBody(back).toString();
        if (row.value !== null && Number.isInteger(row.value) && Math.abs(row.value) < 1e16) expect(written).toContain(`"value":${Object.is(row.value, -0) ? '-0' : row.value}.0,`);
      });
      expect(table.diagnosticRows).toEqual(rows.flatMap((r, i) => (r.availability === 'source_unavailable' || r.availability === 'schema_unavailable' ? [i] : [])));
    }));
  });

  it('makes a fresh row each time, so changing one answer never changes the next', () => {
    const table = RowTable.of([makeRow(bases[0], { entity_id: 'US-USD', value: 1 })]);
    const first = table.row(0);
    first.entity_id = 'changed';
    first.value = 2;
    expect(table.row(0)).toMatchObject({ entity_id: 'US-USD', value: 1 });
  });

  it('keeps columns with more distinct values than one or two bytes can number', () => {
    // 70,000 distinct dates and fields: past the 256 and 65,536 codes of the narrow kinds.
    const day = (i: number) => new Date(Date.UTC(1900, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
    const rows = Array.from({ length: 70_000 }, (_, i) => makeRow(bases[i % 2], { entity_id: `M${i % 300}`, as_of: day(i), value: i / 7, source_field: `/h/${i}` }));
    const table = RowTable.of(rows);
    for (const i of [0, 255, 256, 257, 65_535, 65_536, 65_537, 69_999]) expect(table.row(i)).toEqual(rows[i]);
    expect(table.valuesOf('as_of')[table.codesOf('as_of')[69_999]]).toBe(day(69_999));
  });

  it('folds entity ids and names for the entity filter, null as empty', () => {
    const table = RowTable.of([makeRow(bases[0], { entity_id: 'STRASSE', entity_name: null }), makeRow(bases[0], { entity_id: null, entity_name: 'Straße' })]);
    const folded = (column: 'entity_id' | 'entity_name', i: number) => table.foldedValuesOf(column)[table.codesOf(column)[i]];
    expect([folded('entity_id', 0), folded('entity_name', 0)]).toEqual(['strasse', '']);
    expect([folded('entity_id', 1), folded('entity_name', 1)]).toEqual(['', 'strasse']);
  });
});
