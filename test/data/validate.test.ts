import { describe, expect, it } from 'vitest';
import { encodeDataBody } from '../../src/data/encode.js';
import { QueryValidationError } from '../../src/data/errors.js';
import { validateQuery, validateSnapshotList, wholeNumberOf } from '../../src/data/validate.js';

function problems(raw: Record<string, unknown>) {
  try {
    validateQuery(raw);
  } catch (error) {
    expect(error).toBeInstanceOf(QueryValidationError);
    return (error as QueryValidationError).body();
  }
  throw new Error('expected a validation error');
}

describe('query parameter validation', () => {
  it('applies the defaults', () => {
    expect(validateQuery({ dataset: 'bank_risk' })).toEqual({
      dataset: 'bank_risk', entity: '', startDate: '', endDate: '', limit: 200, offset: 0, snapshot: null, asRetrievedAt: null, format: 'json',
    });
  });

  it.each([
    [{}, 'dataset', 'missing', 'dataset_required'],
    [{ dataset: 'bad' }, 'dataset', 'enum', 'unknown_dataset'],
    [{ dataset: 'bank_risk', limit: '0' }, 'limit', 'greater_than_equal', 'invalid_limit'],
    [{ dataset: 'bank_risk', limit: '2001' }, 'limit', 'less_than_equal', 'invalid_limit'],
    [{ dataset: 'bank_risk', limit: 'true' }, 'limit', 'int_parsing', 'invalid_limit'],
    [{ dataset: 'bank_risk', limit: '1.5' }, 'limit', 'int_parsing', 'invalid_limit'],
    [{ dataset: 'bank_risk', offset: '-1' }, 'offset', 'greater_than_equal', 'invalid_offset'],
    [{ dataset: 'bank_risk', format: 'xlsx' }, 'format', 'enum', 'invalid_format'],
    [{ dataset: 'bank_risk', offset: '100001' }, 'offset', 'less_than_equal', 'invalid_offset'],
    [{ dataset: 'bank_risk', entity: 'x'.repeat(101) }, 'entity', 'string_too_long', 'entity_too_long'],
    [{ dataset: 'bank_risk', start_date: '20260901' }, 'start_date', 'date_format', 'invalid_date'],
    [{ dataset: 'bank_risk', end_date: 'today' }, 'end_date', 'date_format', 'invalid_date'],
    [{ dataset: 'bank_risk', start_date: '2026-02-30' }, 'start_date', 'date_invalid', 'invalid_date'],
    [{ dataset: 'bank_risk', start_date: '2026-09-02', end_date: '2026-09-01' }, 'start_date', 'date_range', 'date_range_reversed'],
    [{ dataset: 'bank_risk', snapshot: 'ABC' }, 'snapshot', 'string_pattern_mismatch', 'invalid_snapshot_id'],
    [{ dataset: 'bank_risk', as_retrieved_at: '2026-09-01' }, 'as_retrieved_at', 'datetime_format', 'invalid_instant'],
    [{ dataset: 'bank_risk', as_retrieved_at: '2026-09-01T10:00:00+02:00' }, 'as_retrieved_at', 'datetime_format', 'invalid_instant'],
    [{ dataset: 'bank_risk', snapshot: 'a'.repeat(32), as_retrieved_at: '2026-09-01T10:00:00Z' }, 'as_retrieved_at', 'conflict', 'conflicting_parameters'],
  ])('refuses %o in the one 422 shape', (raw, name, type, code) => {
    const body = problems(raw);
    expect(Object.keys(body)).toEqual(['detail', 'code', 'path']);
    expect(body.code).toBe(code);
    expect(body.path).toBe(`/query/${name}`);
    expect(body.detail).toHaveLength(1);
    expect(Object.keys(body.detail[0])).toEqual(['type', 'loc', 'msg', 'input']);
    expect(body.detail[0]).toMatchObject({ type, loc: ['query', name] });
    expect(body.detail[0].input).toBe(name === 'dataset' && type === 'missing' ? null : (raw as Record<string, unknown>)[name]);
  });

  it('reports every invalid parameter at once, in parameter order', () => {
    const body = problems({ dataset: 'nope', limit: '0', offset: 'x', start_date: 'y' });
    expect(body.detail.map((d) => d.loc[1])).toEqual(['dataset', 'start_date', 'limit', 'offset']);
    expect(body.code).toBe('unknown_dataset');
  });

  it('counts the entity length in code points and takes the last of repeated values', () => {
    expect(validateQuery({ dataset: 'bank_risk', entity: '😀'.repeat(100) }).entity).toHaveLength(200);
    expect(validateQuery({ dataset: ['bad', 'bank_risk'], limit: ['5', '7'] })).toMatchObject({ dataset: 'bank_risk', limit: 7 });
  });

  it('accepts the bounds and empty optional values', () => {
    expect(validateQuery({ dataset: 'source_health', limit: '2000', offset: '100000', start_date: '', end_date: '2024-02-29', snapshot: '' })).toMatchObject({ limit: 2000, offset: 100000, startDate: '', endDate: '2024-02-29', snapshot: null });
    expect(validateQuery({ dataset: 'source_health', as_retrieved_at: '2026-09-01T10:00:00.5+00:00' }).asRetrievedAt).toBe(1788256800500000n);
  });

  it('keeps the 422 body encodable when the echoed input holds a lone surrogate', () => {
    const body = problems({ dataset: 'bank_risk', entity: `${'x'.repeat(100)}\ud800` });
    expect(body.detail[0].input).toBe(`${'x'.repeat(100)}\uFFFD`);
    expect(() => encodeDataBody(body)).not.toThrow();
  });

  it('validates the snapshot listing parameters the same way', () => {
    expect(validateSnapshotList({ dataset: 'bank_risk' })).toEqual({ dataset: 'bank_risk', limit: 100, offset: 0 });
    expect(() => validateSnapshotList({ dataset: 'bank_risk', limit: '1001' })).toThrow(QueryValidationError);
    expect(() => validateSnapshotList({})).toThrow(QueryValidationError);
  });
});

// Recorded from pydantic 2.13.4, the upstream's framework: TypeAdapter(int).validate_python(text),
// null where it refuses the text (int_parsing).
const PYDANTIC_INTEGERS: [string, number | null][] = [
  ["2", 2],
  ["+2", 2],
  ["-2", -2],
  ["-0", 0],
  ["+0", 0],
  ["02", 2],
  ["00", 0],
  [" 2", 2],
  ["2 ", 2],
  ["\t2", 2],
  ["2\n", 2],
  ["\u000b2\f", 2],
  ["\r2", 2],
  ["\u00852", 2],
  ["\u00a02", 2],
  ["\u16802", 2],
  ["\u20002", 2],
  ["\u200a2", 2],
  ["\u20282", 2],
  ["\u20292", 2],
  ["\u202f2", 2],
  ["\u205f2", 2],
  ["\u30002", 2],
  ["\u180e2", null],
  ["\u200b2", null],
  ["\u001c2", null],
  ["\u001f2", null],
  ["2\u0000", null],
  [" +2 ", 2],
  ["+ 2", null],
  ["- 2", null],
  ["+-2", null],
  ["++2", null],
  ["--2", null],
  ["+", null],
  ["-", null],
  ["", null],
  [" ", null],
  ["1_0", 10],
  ["1_000", 1000],
  ["0_0", 0],
  ["1__0", null],
  ["_1", null],
  ["1_", null],
  ["-_1", null],
  ["+_1", null],
  ["1_0.0", 10],
  ["2.0", 2],
  ["2.00", 2],
  ["+2.0", 2],
  ["-2.0", -2],
  ["-0.0", 0],
  ["0.0", 0],
  ["00.0", 0],
  ["2.", null],
  [".0", null],
  ["-.0", null],
  ["2.01", null],
  ["2.5", null],
  ["2.0_0", null],
  ["2 .0", null],
  ["2.0\n", 2],
  ["2e0", null],
  ["1e3", null],
  ["0x1", null],
  ["0b1", null],
  ["0o1", null],
  ["\u0662", null],
  ["\uff12", null],
  ["true", null],
  ["1,000", null],
  ["Infinity", null],
  ["NaN", null],
  ["12345678901234567890", 12345678901234567890],
  ["99999999999999999999.0", 99999999999999999999],
  ["0__5", 5],
  ["0_", null],
  ["00_5", 5],
  ["0_0_", null],
  ["0___", null],
  ["-0__5", -5],
  ["+0__5", 5],
  ["0__5.0", 5],
  ["0_5__5", null],
  ["0__", null],
  ["00__0", 0],
  ["0__0__5", 5],
  ["0_05", 5],
  ["0__5_", null],
  ["0_0__1", 1],
  ["0__1_2", 12],
  ["0_1__2", null],
  ["__5", null],
];

describe('whole-number query text', () => {
  it('reads every spelling the upstream reads, to the same value, and refuses every other', () => {
    for (const [text, value] of PYDANTIC_INTEGERS) expect(wholeNumberOf(text), JSON.stringify(text)).toBe(value ?? undefined);
  });

  it('answers limit and offset spelled with a sign, spaces, underscores or a zero fraction as their value', () => {
    expect(validateQuery({ dataset: 'bank_risk', limit: '+2', offset: ' 1_0.0 ' })).toMatchObject({ limit: 2, offset: 10 });
    expect(() => validateQuery({ dataset: 'bank_risk', limit: '+-2' })).toThrow();
  });
});
