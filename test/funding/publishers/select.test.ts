import { describe, expect, it } from 'vitest';

import { PublisherObservationMissingError } from '../../../src/funding/errors.js';
import { parsePratesArchive } from '../../../src/funding/publishers/frb-prates.js';
import { parseSofrDocument } from '../../../src/funding/publishers/nyfed-rates.js';
import { parseSrfDocument } from '../../../src/funding/publishers/nyfed-operations.js';
import { latestCommonDate, newerObservationAvailable, observationOnOrBefore } from '../../../src/funding/publishers/select.js';
import { fixture, seriesOf } from './fixtures.js';

const sofr = seriesOf(parseSofrDocument(fixture('sofr/valid.json')), 'policy.sofr');
const iorb = seriesOf(parsePratesArchive(fixture('iorb/valid.zip')), 'policy.iorb');

describe('choosing observations', () => {
  it('finds the latest date both SOFR and IORB have', () => {
    expect(latestCommonDate(sofr, iorb)).toBe('2026-10-20');
    expect(latestCommonDate(iorb, sofr)).toBe('2026-10-20');
  });

  it('counts a date whose value was rejected, so a broken newest SOFR fails instead of backdating the review', () => {
    const broken = seriesOf(parseSofrDocument(fixture('sofr/invalid-values.json')), 'policy.sofr');
    expect(latestCommonDate(broken, iorb)).toBe('2026-10-20');
    expect(() => observationOnOrBefore(broken, '2026-10-20', '2026-10-16')).toThrow(/percentRate for 2026-10-20 is null/);
  });

  it('takes the newest observation on or before the review date', () => {
    expect(observationOnOrBefore(iorb, '2026-10-20', '2026-10-16')).toMatchObject({ date: '2026-10-20', value: 3.9 });
    expect(observationOnOrBefore(iorb, '2026-10-12', '2026-10-08')).toMatchObject({ date: '2026-10-09' });
  });

  it('reports a missing observation when the newest one is older than the backstop', () => {
    let caught: unknown;
    try {
      observationOnOrBefore(sofr, '2026-10-12', '2026-10-10');
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(PublisherObservationMissingError);
    expect(caught).toMatchObject({ code: 'publisher_observation_missing', status: 502, document: 'sofr', metric: 'policy.sofr' });
    expect(String((caught as Error).message)).toContain('2026-10-09');
    expect(() => observationOnOrBefore(sofr, '2026-10-01', '2026-09-25')).toThrow(PublisherObservationMissingError);
  });

  it('says whether the document holds a newer accepted observation', () => {
    expect(newerObservationAvailable(iorb, '2026-10-20')).toBe(true);
    expect(newerObservationAvailable(sofr, '2026-10-20')).toBe(false);
    const inProgress = seriesOf(parseSrfDocument(fixture('srf/day-in-progress.json')), 'liquidity.srf');
    expect(newerObservationAvailable(inProgress, '2026-10-20')).toBe(false);
  });
});
