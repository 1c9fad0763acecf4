import { describe, expect, it } from 'vitest';

import { AppError } from '../../../src/core/errors.js';
import { parseEffrDocument, parseSofrDocument } from '../../../src/funding/publishers/nyfed-rates.js';
import { parseOnRrpDocument } from '../../../src/funding/publishers/nyfed-operations.js';
import { parseTreasuryDtsDocument } from '../../../src/funding/publishers/treasury-dts.js';
import { observationOnOrBefore } from '../../../src/funding/publishers/select.js';
import { acceptedValues, documentFailure, entryOn, fixture, rejection, seriesOf } from './fixtures.js';

describe('SOFR document', () => {
  const doc = parseSofrDocument(fixture('sofr/valid.json'));
  const rate = seriesOf(doc, 'policy.sofr');
  const p99 = seriesOf(doc, 'distribution.sofr.p99');
  const volume = seriesOf(doc, 'distribution.sofr.volume');

  it('yields rate, 99th percentile and volume for every SOFR day, newest first', () => {
    expect(doc.document).toBe('sofr');
    expect(doc.series.map((s) => s.metric)).toEqual(['policy.sofr', 'distribution.sofr.p99', 'distribution.sofr.volume']);
    expect(rate.observations.map((o) => o.date)).toEqual([
      '2026-10-20', '2026-10-19', '2026-10-16', '2026-10-15', '2026-10-14',
      '2026-10-13', '2026-10-09', '2026-10-08', '2026-10-07', '2026-10-06',
    ]);
    expect(rate.observations.every((o) => o.state === 'accepted')).toBe(true);
  });

  it('keeps the published digits exactly (volume already in billions)', () => {
    expect(entryOn(rate, '2026-10-20')).toEqual({ date: '2026-10-20', state: 'accepted', exact: '3.87', value: 3.87 });
    expect(entryOn(p99, '2026-10-15')).toMatchObject({ exact: '4.05', value: 4.05 });
    expect(entryOn(volume, '2026-10-20')).toMatchObject({ exact: '2914', value: 2914 });
    expect(acceptedValues(volume)[9]).toEqual(['2026-10-06', 2902]);
  });

  it('reports the newest date of the document for each metric', () => {
    expect([rate.newestDate, p99.newestDate, volume.newestDate]).toEqual(['2026-10-20', '2026-10-20', '2026-10-20']);
  });

  it('treats zero as a value', () => {
    const zero = parseSofrDocument(fixture('sofr/zero-volume.json'));
    expect(entryOn(seriesOf(zero, 'distribution.sofr.volume'), '2026-10-20')).toMatchObject({ state: 'accepted', exact: '0', value: 0 });
    expect(entryOn(seriesOf(zero, 'policy.sofr'), '2026-10-20')).toMatchObject({ state: 'accepted', value: 0 });
  });

  it('rejects an "NA" percentile for its date, never reading it as zero or falling back to an older day', () => {
    const na = parseSofrDocument(fixture('sofr/p99-na.json'));
    const pct = seriesOf(na, 'distribution.sofr.p99');
    const error = rejection(pct, '2026-10-20', 'document_not_a_number');
    expect(error.message).toMatch(/percentPercentile99.*2026-10-20.*"NA"/);
    expect(error.location).toBe('/refRates/0/percentPercentile99');
    expect(entryOn(seriesOf(na, 'policy.sofr'), '2026-10-20').state).toBe('accepted');
    expect(pct.newestDate).toBe('2026-10-19');
    expect(() => observationOnOrBefore(pct, '2026-10-20', '2026-10-16')).toThrow(error);
  });

  it.each([
    ['2026-10-20', 'policy.sofr', 'null'],
    ['2026-10-19', 'policy.sofr', 'true'],
    ['2026-10-16', 'policy.sofr', '"NaN"'],
    ['2026-10-15', 'distribution.sofr.volume', '"Infinity"'],
    ['2026-10-14', 'policy.sofr', '"."'],
    ['2026-10-13', 'distribution.sofr.p99', '"3.98"'],
    ['2026-10-09', 'policy.sofr', 'false'],
    ['2026-10-08', 'distribution.sofr.volume', '"-Infinity"'],
  ] as const)('rejects the value on %s of %s given as %s', (date, metric, shown) => {
    const doc = parseSofrDocument(fixture('sofr/invalid-values.json'));
    const error = rejection(seriesOf(doc, metric), date, 'document_not_a_number');
    expect(error.message).toContain(shown.replace(/^"|"$/g, ''));
    expect(entryOn(seriesOf(doc, metric), '2026-10-07').state).toBe('accepted');
  });

  it('refuses two SOFR rows for the same date', () => {
    const error = documentFailure(() => parseSofrDocument(fixture('sofr/duplicate-date.json')), 'document_duplicate_date');
    expect(error.message).toContain('2026-10-19');
    expect(error.location).toBe('/refRates/2/effectiveDate');
  });

  it('refuses effective dates that are not real YYYY-MM-DD dates', () => {
    documentFailure(() => parseSofrDocument(fixture('sofr/impossible-date.json')), 'document_bad_date');
    documentFailure(() => parseSofrDocument(fixture('sofr/date-format.json')), 'document_bad_date');
  });

  it('refuses a document without a refRates array', () => {
    documentFailure(() => parseSofrDocument(fixture('sofr/missing-refrates.json')), 'document_unexpected_shape');
    documentFailure(() => parseSofrDocument('[]'), 'document_unexpected_shape');
    documentFailure(() => parseSofrDocument('{"refRates": [3.9]}'), 'document_unexpected_shape');
  });

  it.each(['nan-literal', 'overflow', 'duplicate-key', 'truncated'])('refuses non-strict JSON (%s)', (name) => {
    documentFailure(() => parseSofrDocument(fixture(`sofr/${name}.json`)), 'document_malformed_json');
  });

  it('refuses bodies that are not UTF-8 or larger than 2,000,000 bytes', () => {
    // Named for what is wrong (the registry's document_not_utf8), for every JSON publisher.
    documentFailure(() => parseSofrDocument(new Uint8Array([0x7b, 0xff, 0x7d])), 'document_not_utf8');
    documentFailure(() => parseTreasuryDtsDocument(new Uint8Array([0x7b, 0x22, 0xe9, 0x22, 0x7d])), 'document_not_utf8');
    documentFailure(() => parseOnRrpDocument(new Uint8Array([0xc3, 0x28])), 'document_not_utf8');
    const big = `{"refRates": [], "pad": "${'x'.repeat(2_000_000)}"}`;
    documentFailure(() => parseSofrDocument(big), 'document_too_large');
  });

  it('throws registered application errors naming the document', () => {
    const error = documentFailure(() => parseSofrDocument('{}'), 'document_unexpected_shape');
    expect(error).toBeInstanceOf(AppError);
    expect(error.name).toBe('PublisherDocumentError');
    expect(error.document).toBe('sofr');
    expect(error.message).toMatch(/^NY Fed SOFR rates document \(sofr, document_unexpected_shape at \/refRates\): /);
  });
});

describe('documents in the shape the NY Fed serves them', () => {
  it.each([
    ['sofr', parseSofrDocument],
    ['effr', parseEffrDocument],
  ] as const)('%s: one compact line, trailing zeros in numbers, EFFR target range and revisionIndicator: same values as the recorded one', (name, parse) => {
    const text = new TextDecoder().decode(fixture(`${name}/real-shape.json`));
    expect(text).not.toContain('\n');
    expect(text).toMatch(name === 'effr' ? /"targetRateFrom":3\.75,"targetRateTo":4\.00,"volumeInBillions":96,"revisionIndicator":""/ : /"percentRate":3\.90,/);
    expect(parse(fixture(`${name}/real-shape.json`))).toEqual(parse(fixture(`${name}/valid.json`)));
  });
});

describe('EFFR document', () => {
  it('yields the effective rate for every EFFR day', () => {
    const doc = parseEffrDocument(fixture('effr/valid.json'));
    expect(doc.series.map((s) => s.metric)).toEqual(['policy.effr']);
    const effr = seriesOf(doc, 'policy.effr');
    expect(effr.observations).toHaveLength(10);
    expect(entryOn(effr, '2026-10-15')).toMatchObject({ exact: '3.89', value: 3.89 });
    expect(effr.newestDate).toBe('2026-10-20');
  });

  it('reads only rows of type EFFR, so other types neither count nor collide', () => {
    const effr = seriesOf(parseEffrDocument(fixture('effr/mixed-types.json')), 'policy.effr');
    expect(acceptedValues(effr)).toEqual([['2026-10-20', 3.88], ['2026-10-19', 3.88]]);
    expect(seriesOf(parseEffrDocument(fixture('sofr/valid.json')), 'policy.effr')).toMatchObject({ observations: [], newestDate: null });
  });

  it('refuses duplicate EFFR dates and rows without a type', () => {
    documentFailure(() => parseEffrDocument(fixture('effr/duplicate-date.json')), 'document_duplicate_date');
    documentFailure(() => parseEffrDocument(fixture('effr/row-without-type.json')), 'document_unexpected_shape');
  });

  it('rejects a null rate for its date', () => {
    const effr = seriesOf(parseEffrDocument(fixture('effr/rate-null.json')), 'policy.effr');
    expect(rejection(effr, '2026-10-20', 'document_not_a_number').message).toContain('null');
    expect(effr.newestDate).toBe('2026-10-19');
  });
});

describe('what no NY Fed print can be is rejected for its date', () => {
  const sofrDoc = () => JSON.parse(new TextDecoder().decode(fixture('sofr/valid.json'))) as { refRates: Record<string, unknown>[] };

  it('a SOFR day on a weekend, a Federal Reserve holiday or a bond-market full close rejects all three SOFR metrics', () => {
    const doc = sofrDoc();
    doc.refRates[0].effectiveDate = '2026-11-28'; // a Saturday
    doc.refRates[1].effectiveDate = '2026-11-26'; // Thanksgiving
    doc.refRates[2].effectiveDate = '2026-04-03'; // Good Friday: SOFR closed, the Reserve Banks open
    const parsed = parseSofrDocument(JSON.stringify(doc));
    for (const metric of ['policy.sofr', 'distribution.sofr.p99', 'distribution.sofr.volume'] as const) {
      const series = seriesOf(parsed, metric);
      expect(rejection(series, '2026-11-28', 'document_not_business_day').message).toMatch(/2026-11-28, a Saturday/);
      expect(rejection(series, '2026-11-26', 'document_not_business_day').message).toMatch(/Thanksgiving Day/);
      expect(rejection(series, '2026-04-03', 'document_not_business_day').location).toBe('/refRates/2/effectiveDate');
      // The bogus newest day is never skipped for an older one: choosing it fails the capture.
      expect(() => observationOnOrBefore(series, '2026-11-28', '2026-11-28')).toThrow(/document_not_business_day/);
    }
  });

  it('EFFR keeps the Reserve Banks\' calendar: open on Good Friday, closed on Columbus Day', () => {
    const doc = JSON.parse(new TextDecoder().decode(fixture('effr/valid.json'))) as { refRates: Record<string, unknown>[] };
    doc.refRates[0].effectiveDate = '2026-04-03';
    doc.refRates[1].effectiveDate = '2026-10-12';
    const effr = seriesOf(parseEffrDocument(JSON.stringify(doc)), 'policy.effr');
    expect(entryOn(effr, '2026-04-03').state).toBe('accepted');
    rejection(effr, '2026-10-12', 'document_not_business_day');
  });

  it('a negative, fractional or absurd SOFR volume, or a 99th percentile below the rate, is rejected; the others that day stand', () => {
    const doc = sofrDoc();
    doc.refRates[0].volumeInBillions = -5;
    doc.refRates[1].volumeInBillions = 1.2345678901234567e16;
    doc.refRates[2].percentPercentile99 = 3.5; // below that day's rate
    doc.refRates[3].percentPercentile99 = doc.refRates[3].percentRate; // equal to the median: possible
    doc.refRates[4].volumeInBillions = 3.157; // trillions
    doc.refRates[5].volumeInBillions = 900000; // millions
    const parsed = parseSofrDocument(JSON.stringify(doc));
    const volume = seriesOf(parsed, 'distribution.sofr.volume');
    const p99 = seriesOf(parsed, 'distribution.sofr.p99');
    expect(rejection(volume, '2026-10-20', 'document_negative_amount').location).toBe('/refRates/0/volumeInBillions');
    rejection(volume, '2026-10-19', 'document_implausible_amount');
    expect(rejection(p99, '2026-10-16', 'document_percentile_below_rate').message).toMatch(/below the day's rate 3\.\d+/);
    expect(entryOn(p99, '2026-10-15').state).toBe('accepted');
    rejection(volume, '2026-10-14', 'document_not_whole_units');
    rejection(volume, '2026-10-13', 'document_implausible_amount');
    expect(entryOn(seriesOf(parsed, 'policy.sofr'), '2026-10-20').state).toBe('accepted');
  });

  it('a rate outside -5 to 20 percent is rejected: basis points, or the volume read as the percentile', () => {
    const doc = sofrDoc();
    doc.refRates[0].percentRate = 387; // basis points
    doc.refRates[1].percentPercentile99 = 3157; // swapped with the volume…
    doc.refRates[1].volumeInBillions = 3.73; // …which is no whole number of billions
    doc.refRates[2].percentRate = -5.5;
    doc.refRates[3].percentRate = -0.25; // negative rates are possible
    doc.refRates[3].percentPercentile99 = 0.1;
    const parsed = parseSofrDocument(JSON.stringify(doc));
    expect(rejection(seriesOf(parsed, 'policy.sofr'), '2026-10-20', 'document_implausible_rate').message).toMatch(/387, outside -5 to 20 percent/);
    rejection(seriesOf(parsed, 'distribution.sofr.p99'), '2026-10-19', 'document_implausible_rate');
    rejection(seriesOf(parsed, 'distribution.sofr.volume'), '2026-10-19', 'document_not_whole_units');
    rejection(seriesOf(parsed, 'policy.sofr'), '2026-10-16', 'document_implausible_rate');
    expect(entryOn(seriesOf(parsed, 'policy.sofr'), '2026-10-15')).toMatchObject({ state: 'accepted', value: -0.25 });
    const effr = JSON.parse(new TextDecoder().decode(fixture('effr/valid.json'))) as { refRates: Record<string, unknown>[] };
    effr.refRates[0].percentRate = 96;
    rejection(seriesOf(parseEffrDocument(JSON.stringify(effr)), 'policy.effr'), effr.refRates[0].effectiveDate as string, 'document_implausible_rate');
  });
});
