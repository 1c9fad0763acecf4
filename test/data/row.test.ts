import { describe, expect, it } from 'vitest';
import { contextJson, copiedObject, encodeDataBody, memberJson } from '../../src/data/encode.js';
import { makeRow, ROW_COLUMNS, schemaUnavailableRow, sourceUnavailableRow, type RowBase } from '../../src/data/row.js';
import { RowTable } from '../../src/data/row-table.js';
import { textAt } from '../../src/data/text.js';
import { parseStrictJson } from '../../src/core/json.js';
import { parse } from './documents.js';

const base: RowBase = { dataset: 'money_markets', product: 'Seiche', source_url: 'https://x.test/', retrieved_at: '2026-01-01T00:00:00Z', content_sha256: null, transport_status: 'complete' };

describe('evidence rows', () => {
  it('have exactly the 23 upstream columns in order, with the defaults', () => {
    const row = makeRow(base, {});
    expect(ROW_COLUMNS).toHaveLength(23);
    expect(Object.keys(row)).toEqual([...ROW_COLUMNS]);
    expect(row).toMatchObject({ value: null, availability: 'not_reported', source_field: '', evidence_status: 'not_evaluated', financial_authority: 'none', carrier_verification: 'not_performed' });
  });

  it('are written, as a snapshot table makes them for an answer, with float values as Python writes them (0.0, 66.0, 1e-05), in compact JSON', () => {
    const text = (value: number) => encodeDataBody(RowTable.of([makeRow(base, { value })]).row(0)).toString();
    expect(text(0)).toContain('"value":0.0,');
    expect(text(66)).toContain('"value":66.0,');
    expect(text(0.00001)).toContain('"value":1e-05,');
    expect(text(1e16)).toContain('"value":1e+16,');
    expect(text(-2)).toContain('"value":-2.0,');
    expect(text(4.31)).toContain('"value":4.31,');
    expect(encodeDataBody(RowTable.of([makeRow(base, {})]).row(0)).toString()).toContain('"value":null,');
  });

  it('stand in for a failed source and for a document without the expected collection', () => {
    const failed = sourceUnavailableRow({ ...base, transport_status: 'unavailable' }, 'timeout: no answer within 10 s');
    expect(failed).toMatchObject({ entity_id: 'Seiche', metric: 'source_status', availability: 'source_unavailable', value: null, as_of: null, unit: null, source_field: '', context: 'timeout: no answer within 10 s', transport_status: 'unavailable' });
    const drift = schemaUnavailableRow(base);
    expect(drift).toMatchObject({ entity_id: 'Seiche', metric: 'source_status', availability: 'schema_unavailable', value: null, transport_status: 'complete' });
    expect(drift.context).toMatch(/collection/);
  });
});

describe('context texts', () => {
  it('sort keys and use Python separators, keeping non-ASCII text and number kinds', () => {
    const doc = parse('{"z": 1, "a": 2.0, "m": "Zürich 東京", "n": [1, 1.5, true, null]}');
    expect(memberJson({ doc }, 'doc')).toBe('{"a": 2.0, "m": "Zürich 東京", "n": [1, 1.5, true, null], "z": 1}');
  });

  it('keep the kind of a number copied straight from a member, and write a huge integer as its digits, as Python does', () => {
    const huge = '1' + '0'.repeat(400);
    // Read as a source document is (hugeIntegers: an integer no double holds stays its digits).
    const doc = parseStrictJson(`{"obs": 30.0, "age": -0.0, "n": -0, "i": 7, "big": 12345678901234567890, "huge": ${huge}, "list": [${huge}, 2.0], "s": "${huge}"}`, { hugeIntegers: true }) as Record<string, unknown>;
    const members = copiedObject({ obs: [doc, 'obs'], age: [doc, 'age'], n: [doc, 'n'], i: [doc, 'i'], big: [doc, 'big'], huge: [doc, 'huge'], list: [doc, 'list'], s: [doc, 's'], none: [doc, 'absent'], nothing: null });
    expect(contextJson(members)).toBe(`{"age": -0.0, "big": 12345678901234567890, "huge": ${huge}, "i": 7, "list": [${huge}, 2.0], "n": 0, "none": null, "nothing": null, "obs": 30.0, "s": "${huge}"}`);
    expect(memberJson(doc, 'obs')).toBe('30.0');
    expect(memberJson(doc, 'huge')).toBe(huge);
    expect(memberJson(doc, 'absent')).toBe('null');
  });

  it('replace lone surrogates from a document so encoding never fails', () => {
    const doc = parse('{"k\\udc00": "x\\ud800y"}');
    expect(memberJson({ doc }, 'doc')).toBe('{"k\uFFFD": "x\uFFFDy"}');
    expect(textAt(parse('{"a": "\\ud800"}'), 'a')).toBe('\uFFFD');
  });
});

describe('text coercion', () => {
  it('prints scalars as Python str() does and drops structures', () => {
    const doc = parse('{"i": 5, "f": 5.0, "e": 1e-7, "big": 123456789012345678901234567890, "t": true, "f2": false, "s": "x", "n": null, "o": {}, "a": []}');
    expect(['i', 'f', 'e', 'big', 't', 'f2', 's', 'n', 'o', 'a', 'missing'].map((k) => textAt(doc, k))).toEqual([
      '5', '5.0', '1e-07', '123456789012345678901234567890', 'True', 'False', 'x', null, null, null, null,
    ]);
  });

  it('never reads members a document does not hold itself', () => {
    expect(textAt(parse('{}'), 'constructor')).toBeNull();
    expect(textAt(parse('{}'), 'toString')).toBeNull();
  });
});
