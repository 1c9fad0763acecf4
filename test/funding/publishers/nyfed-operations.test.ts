import { describe, expect, it } from 'vitest';

import { parseOnRrpDocument, parseSrfDocument } from '../../../src/funding/publishers/nyfed-operations.js';
import { observationOnOrBefore } from '../../../src/funding/publishers/select.js';
import { acceptedValues, documentFailure, entryOn, fixture, rejection, seriesOf } from './fixtures.js';

describe('ON RRP results', () => {
  const rrp = seriesOf(parseOnRrpDocument(fixture('on_rrp/valid.json')), 'liquidity.on_rrp');

  it('converts each day\'s accepted dollars to billions exactly', () => {
    expect(rrp.observations).toHaveLength(10);
    expect(entryOn(rrp, '2026-10-20')).toEqual({ date: '2026-10-20', state: 'accepted', exact: '0.576', value: 0.576 });
    expect(acceptedValues(rrp).slice(1, 3)).toEqual([['2026-10-19', 1.204], ['2026-10-16', 2.318]]);
    expect(entryOn(rrp, '2026-10-06')).toMatchObject({ exact: '9.264', value: 9.264 });
    expect(rrp.newestDate).toBe('2026-10-20');
  });

  it('ignores other operation types and terms, and keeps a zero day as a value', () => {
    const other = seriesOf(parseOnRrpDocument(fixture('on_rrp/other-operations-ignored.json')), 'liquidity.on_rrp');
    expect(acceptedValues(other)).toEqual([['2026-10-20', 0.576], ['2026-10-19', 0]]);
  });

  it('sets aside a small value exercise and an operation on a changed schedule, and keeps them with the day', () => {
    const series = seriesOf(parseOnRrpDocument(fixture('on_rrp/small-value-exercise.json')), 'liquidity.on_rrp');
    expect(entryOn(series, '2026-10-20')).toEqual({
      date: '2026-10-20', state: 'accepted', exact: '0.576', value: 0.576,
      setAside: [{ operation_id: 'RRP 102026 99', close_time: '10:00', note: 'Small Value Exercise', reason: 'small_value_exercise' }],
    });
    expect(entryOn(series, '2026-10-19')).toMatchObject({
      exact: '1.204', setAside: [{ operation_id: 'RRP 101926 99', close_time: '10:00', note: '', reason: 'unscheduled_close_time' }],
    });
    expect(entryOn(series, '2026-10-16')).not.toHaveProperty('setAside');
    expect(series.newestDate).toBe('2026-10-20');
  });

  it('sets aside an exercise even at the scheduled close time when its note says so', () => {
    const doc = JSON.parse(new TextDecoder().decode(fixture('on_rrp/small-value-exercise.json')));
    doc.repo.operations[1].closeTime = '13:15';
    doc.repo.operations[1].note = 'Small value exercise';
    const series = seriesOf(parseOnRrpDocument(JSON.stringify(doc)), 'liquidity.on_rrp');
    expect(entryOn(series, '2026-10-20')).toMatchObject({ exact: '0.576', setAside: [{ operation_id: 'RRP 102026 99', reason: 'small_value_exercise' }] });
  });

  it.each([
    ['two-operations-one-day', 'document_operation_set', /2 regular .* 13:15/],
    ['wrong-close-time', 'document_no_regular_operation', /"13:30".*13:15/],
    ['settlement-next-day', 'document_settlement_date', /2026-10-21/],
    ['negative-amount', 'document_negative_amount', /negative/],
    ['fractional-amount', 'document_not_whole_dollars', /576000000\.5/],
    ['amount-as-text', 'document_not_a_number', /"576000000"/],
    ['amount-null', 'document_not_a_number', /null/],
    ['not-results', 'document_not_results', /"Announcement"/],
  ] as const)('rejects the day for %s, leaving other days usable', (name, reason, message) => {
    const series = seriesOf(parseOnRrpDocument(fixture(`on_rrp/${name}.json`)), 'liquidity.on_rrp');
    expect(rejection(series, '2026-10-20', reason).message).toMatch(message);
    expect(entryOn(series, '2026-10-16')).toMatchObject({ state: 'accepted', value: 2.318 });
    expect(series.newestDate).toBe('2026-10-16');
  });

  it('refuses a document whose operation ids repeat', () => {
    const error = documentFailure(() => parseOnRrpDocument(fixture('on_rrp/duplicate-id.json')), 'document_duplicate_id');
    expect(error.message).toContain('RRP 102026 1');
  });

  it('refuses impossible operation dates and documents without repo.operations', () => {
    documentFailure(() => parseOnRrpDocument(fixture('on_rrp/impossible-date.json')), 'document_bad_date');
    documentFailure(() => parseOnRrpDocument(fixture('on_rrp/missing-operations.json')), 'document_unexpected_shape');
    documentFailure(() => parseOnRrpDocument('{"repo": {"operations": [{"operationId": 7}]}}'), 'document_unexpected_shape');
  });
});

describe('standing repo results', () => {
  const srf = seriesOf(parseSrfDocument(fixture('srf/valid.json')), 'liquidity.srf');

  it('sums the 08:30 and 13:45 operations of each day and divides by 10^9 exactly', () => {
    expect(srf.observations).toHaveLength(10);
    expect(entryOn(srf, '2026-10-20')).toEqual({ date: '2026-10-20', state: 'accepted', exact: '0.001', value: 0.001 });
    expect(entryOn(srf, '2026-10-16')).toMatchObject({ exact: '0.005', value: 0.005 });
    expect(entryOn(srf, '2026-10-15')).toMatchObject({ exact: '1.5', value: 1.5 });
    expect(entryOn(srf, '2026-10-13')).toMatchObject({ exact: '0.25', value: 0.25 });
    expect(entryOn(srf, '2026-10-06')).toMatchObject({ exact: '15.25', value: 15.25 });
    expect(srf.newestDate).toBe('2026-10-20');
  });

  it('keeps a day without use as the value zero', () => {
    expect(entryOn(srf, '2026-10-19')).toMatchObject({ state: 'accepted', exact: '0', value: 0 });
  });

  it('sums only the scheduled morning and afternoon operations when a small value exercise (numbered 99) runs the same day', () => {
    const series = seriesOf(parseSrfDocument(fixture('srf/small-value-exercise.json')), 'liquidity.srf');
    expect(entryOn(series, '2026-10-20')).toEqual({
      date: '2026-10-20', state: 'accepted', exact: '0.001', value: 0.001,
      setAside: [{ operation_id: 'RP 102026 99', close_time: '10:30', note: 'Small Value Exercise', reason: 'small_value_exercise' }],
    });
    expect(entryOn(series, '2026-10-19')).toMatchObject({
      exact: '0', value: 0, setAside: [{ operation_id: 'RP 101926 99', close_time: '10:30', note: '', reason: 'unscheduled_close_time' }],
    });
    expect(series.newestDate).toBe('2026-10-20');
  });

  it('calls a day with only one of its two operations incomplete', () => {
    const series = seriesOf(parseSrfDocument(fixture('srf/one-operation.json')), 'liquidity.srf');
    const error = rejection(series, '2026-10-20', 'document_incomplete');
    expect(error.message).toMatch(/incomplete/);
    expect(() => observationOnOrBefore(series, '2026-10-20', '2026-10-16')).toThrow(/incomplete/);
  });

  it('sets aside a third operation at an unscheduled time instead of rejecting the day', () => {
    const series = seriesOf(parseSrfDocument(fixture('srf/three-operations.json')), 'liquidity.srf');
    expect(entryOn(series, '2026-10-20')).toMatchObject({
      state: 'accepted', exact: '0.001', setAside: [{ operation_id: 'RP 102026 3', close_time: '10:00', reason: 'unscheduled_close_time' }],
    });
  });

  it('still rejects a day whose afternoon operation moved to another time: it is not the scheduled one', () => {
    const series = seriesOf(parseSrfDocument(fixture('srf/wrong-close-times.json')), 'liquidity.srf');
    expect(rejection(series, '2026-10-20', 'document_incomplete').message).toMatch(/13:45 is not listed .*"13:30"/);
  });

  it.each([
    ['same-close-time', 'document_operation_set'],
    ['negative-amount', 'document_negative_amount'],
    ['settlement-next-day', 'document_settlement_date'],
    ['amount-boolean', 'document_not_a_number'],
  ] as const)('rejects the day for %s', (name, reason) => {
    const series = seriesOf(parseSrfDocument(fixture(`srf/${name}.json`)), 'liquidity.srf');
    rejection(series, '2026-10-20', reason);
    expect(entryOn(series, '2026-10-19')).toMatchObject({ state: 'accepted', value: 0 });
  });

  it('refuses a document whose operation ids repeat', () => {
    documentFailure(() => parseSrfDocument(fixture('srf/duplicate-id.json')), 'document_duplicate_id');
  });

  it('does not let a day still in progress hide the complete days before it', () => {
    const series = seriesOf(parseSrfDocument(fixture('srf/day-in-progress.json')), 'liquidity.srf');
    rejection(series, '2026-10-21', 'document_incomplete');
    expect(series.newestDate).toBe('2026-10-20');
    expect(observationOnOrBefore(series, '2026-10-20', '2026-10-16')).toMatchObject({ date: '2026-10-20', value: 0.001 });
  });

  it('reads only overnight Repo operations, not reverse repos', () => {
    const series = seriesOf(parseSrfDocument(fixture('on_rrp/valid.json')), 'liquidity.srf');
    expect(series.observations).toEqual([]);
    expect(series.newestDate).toBeNull();
  });
});

describe('operation awards in another unit', () => {
  it.each([
    [9e15, 'document_implausible_amount'], // beyond $10 trillion
    [1700, 'document_implausible_amount'], // millions written where dollars belong
  ] as const)('rejects the day of an award of %d dollars (%s); zero stays a value', (amount, reason) => {
    const doc = JSON.parse(new TextDecoder().decode(fixture('on_rrp/valid.json'))) as { repo: { operations: Record<string, unknown>[] } };
    doc.repo.operations[0].totalAmtAccepted = amount;
    const series = seriesOf(parseOnRrpDocument(JSON.stringify(doc)), 'liquidity.on_rrp');
    rejection(series, doc.repo.operations[0].operationDate as string, reason);
    doc.repo.operations[0].totalAmtAccepted = 0;
    expect(entryOn(seriesOf(parseOnRrpDocument(JSON.stringify(doc)), 'liquidity.on_rrp'), doc.repo.operations[0].operationDate as string)).toMatchObject({ state: 'accepted', value: 0 });
  });
});

describe('operations dated when the NY Fed holds none', () => {
  it('rejects an ON RRP or standing repo day on a weekend or a Federal Reserve holiday', () => {
    for (const [name, parse, metric] of [['on_rrp/valid.json', parseOnRrpDocument, 'liquidity.on_rrp'], ['srf/valid.json', parseSrfDocument, 'liquidity.srf']] as const) {
      const text = new TextDecoder().decode(fixture(name));
      // Every operation of the newest day moved to Thanksgiving, every one of the next to a Sunday.
      const moved = text.replaceAll('"operationDate": "2026-10-20"', '"operationDate": "2026-11-26"').replaceAll('"settlementDate": "2026-10-20"', '"settlementDate": "2026-11-26"')
        .replaceAll('"operationDate": "2026-10-19"', '"operationDate": "2026-10-18"').replaceAll('"settlementDate": "2026-10-19"', '"settlementDate": "2026-10-18"');
      expect(moved).not.toBe(text);
      const series = seriesOf(parse(moved), metric);
      expect(rejection(series, '2026-11-26', 'document_not_business_day').message).toMatch(/Thanksgiving Day, a Federal Reserve holiday/);
      rejection(series, '2026-10-18', 'document_not_business_day');
      expect(series.newestDate).toBe('2026-10-16');
    }
  });
});
