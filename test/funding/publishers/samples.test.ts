import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { formatIsoDate, parseIsoDate } from '../../../src/core/time.js';
import { parseIorbPage } from '../../../src/funding/publishers/frb-iorb-page.js';
import { extractPratesXml } from '../../../src/funding/publishers/frb-prates.js';
import { METRICS, PUBLISHER_DOCUMENTS } from '../../../src/funding/publishers/catalogue.js';
import {
  SAMPLE_PUBLISHERS_DIR,
  type SampleDay,
  loadSampleDays,
  readSampleDocument,
  sampleDocumentPath,
} from '../../../src/funding/publishers/samples.js';
import { latestCommonDate, newerObservationAvailable, observationOnOrBefore } from '../../../src/funding/publishers/select.js';
import type { MetricId, MetricSeries, PublisherDocument, PublisherKey } from '../../../src/funding/publishers/types.js';
import { entryOn, rejection } from './fixtures.js';

const days = loadSampleDays();

function parseDay(day: SampleDay): Map<MetricId, MetricSeries> {
  const series = new Map<MetricId, MetricSeries>();
  for (const spec of PUBLISHER_DOCUMENTS) {
    const doc: PublisherDocument = spec.parse(readSampleDocument(day, spec.key));
    for (const s of doc.series) series.set(s.metric, s);
  }
  return series;
}

function daysBefore(date: string, n: number): string {
  return formatIsoDate(parseIsoDate(date)! - n);
}

/** What a packet built from the day would hold: review date plus one row per metric. */
function buildRows(day: SampleDay) {
  const series = parseDay(day);
  const reviewAsof = latestCommonDate(series.get('policy.sofr')!, series.get('policy.iorb')!)!;
  const rows = METRICS.map((m) => {
    const s = series.get(m.id)!;
    const o = observationOnOrBefore(s, reviewAsof, daysBefore(reviewAsof, m.cadence === 'weekly' ? 10 : 4));
    return { metric: m.id, date: o.date, exact: o.exact, value: o.value, newer: newerObservationAvailable(s, o.date) };
  });
  return { reviewAsof, rows, series, row: (id: MetricId) => rows.find((r) => r.metric === id)! };
}

describe('sample publisher documents', () => {
  it('come as at least three days, each with all seven documents under the catalogue file names', () => {
    expect(days.map((d) => d.day)).toEqual([1, 2, 3]);
    expect(days.map((d) => path.basename(d.directory))).toEqual(['day-1', 'day-2', 'day-3']);
    for (const day of days) {
      for (const spec of PUBLISHER_DOCUMENTS) expect(existsSync(sampleDocumentPath(day, spec.key))).toBe(true);
    }
    expect(SAMPLE_PUBLISHERS_DIR).toBe(path.resolve('samples/publishers'));
  });

  it('say in every document, and in the README, that they are made up', () => {
    for (const day of days) {
      for (const key of ['sofr', 'effr', 'on_rrp', 'srf', 'tga'] as PublisherKey[]) {
        const doc = JSON.parse(Buffer.from(readSampleDocument(day, key)).toString('utf8')) as { sample_notice?: string };
        expect(doc.sample_notice).toMatch(/^SAMPLE DATA: .*not publisher data\.$/);
      }
      expect(Buffer.from(readSampleDocument(day, 'reserves')).toString('utf8')).toContain('SAMPLE DATA');
      expect(Buffer.from(readSampleDocument(day, 'iorb', 'board_iorb_page')).toString('utf8')).toContain('SAMPLE DATA');
      expect(Buffer.from(extractPratesXml(readSampleDocument(day, 'iorb'))).toString('utf8')).toContain('SAMPLE DATA');
    }
    expect(readFileSync(path.join(SAMPLE_PUBLISHERS_DIR, 'README.md'), 'utf8')).toMatch(/made-up documents, not publisher data/);
  });

  it('are in the publishers\' real shapes: daily PRATES series, Fiscal Data CURRENCY metadata, H.4.1 grouped headers, small value exercises', () => {
    for (const day of days) {
      const xml = Buffer.from(extractPratesXml(readSampleDocument(day, 'iorb'))).toString('utf8');
      expect(xml).toContain('FREQ="8" INSTRUMENT="RESBM" SERIES_NAME="RESBM_N.D"');
      const tga = JSON.parse(Buffer.from(readSampleDocument(day, 'tga')).toString('utf8'));
      expect([tga.meta.dataTypes.open_today_bal, tga.meta.dataFormats.open_today_bal]).toEqual(['CURRENCY', '$10.20']);
      expect(Buffer.from(readSampleDocument(day, 'reserves')).toString('utf8')).toContain('colspan="3" scope="colgroup" class="colhead">Averages of daily figures');
    }
    // Day 3's H.4.1 page has a row more above reserves, so their cell ids moved.
    expect(Buffer.from(readSampleDocument(days[2], 'reserves')).toString('utf8')).toMatch(/t2r17c1[^>]*>Reserve balances with Federal Reserve Banks/);
    for (const day of days.slice(1)) {
      const series = parseDay(day);
      expect(entryOn(series.get('liquidity.on_rrp')!, '2026-11-19')).toMatchObject({
        setAside: [{ operation_id: 'RRP 111926 99', reason: 'small_value_exercise' }],
      });
      expect(entryOn(series.get('liquidity.srf')!, '2026-11-19')).toMatchObject({
        exact: '0', setAside: [{ operation_id: 'RP 111926 99', close_time: '10:30', reason: 'unscheduled_close_time' }],
      });
    }
  });

  it.each(days.map((d) => [d.day, d] as const))('day %i gives IORB the same from the Board page as from the PRATES package', (_n, day) => {
    const asOf = day.simulatedAt.slice(0, 10);
    const page = parseIorbPage(readSampleDocument(day, 'iorb', 'board_iorb_page'), { asOf }).series[0];
    const prates = parseDay(day).get('policy.iorb')!;
    expect(page.newestDate).toBe(prates.newestDate);
    for (const o of prates.observations) expect(entryOn(page, o.date)).toEqual(o);
  });

  it('cover at least five business days in every daily document', () => {
    for (const day of days) {
      for (const [metric, s] of parseDay(day)) {
        if (metric !== 'liquidity.reserves') expect(s.observations.length, `${day.day} ${metric}`).toBeGreaterThanOrEqual(5);
      }
    }
  });

  it.each(days.map((d) => [d.day, d] as const))('day %i yields a complete packet on its stated review date', (_n, day) => {
    const packet = buildRows(day);
    expect(packet.reviewAsof).toBe(day.reviewAsof);
    expect(packet.rows).toHaveLength(9);
    for (const row of packet.rows) {
      expect(row.date <= packet.reviewAsof).toBe(true);
      expect(Number.isFinite(row.value)).toBe(true);
    }
    expect(day.simulatedAt.slice(0, 10) > day.reviewAsof).toBe(true);
  });

  it('day 1 shows a standing repo total below 0.01 $B and a repo window cut at both ends', () => {
    const packet = buildRows(days[0]);
    expect(packet.row('liquidity.srf')).toMatchObject({ date: '2026-11-18', exact: '0.005', value: 0.005 });
    expect(packet.row('liquidity.reserves')).toMatchObject({ date: '2026-11-11', exact: '2874.506' });
    expect(packet.row('liquidity.tga')).toMatchObject({ date: '2026-11-17', exact: '874.219' });
    expect(packet.row('liquidity.on_rrp')).toMatchObject({ date: '2026-11-18', exact: '0.415' });
    expect(packet.row('policy.iorb')).toMatchObject({ date: '2026-11-18', exact: '3.65', newer: true });
    const srf = packet.series.get('liquidity.srf')!;
    rejection(srf, '2026-11-19', 'document_incomplete');
    rejection(srf, '2026-11-04', 'document_incomplete');
    expect(srf.newestDate).toBe('2026-11-18');
  });

  it('day 2 moves every metric to a new observation date and shows a zero standing repo total', () => {
    const before = buildRows(days[0]);
    const after = buildRows(days[1]);
    for (const row of after.rows) expect(row.date, row.metric).not.toBe(before.row(row.metric).date);
    expect(after.row('liquidity.srf')).toMatchObject({ date: '2026-11-19', exact: '0', value: 0 });
    expect(after.row('liquidity.reserves')).toMatchObject({ date: '2026-11-18', exact: '2861.218' });
  });

  it('day 3 revises one value on the same date and nothing else in the packet', () => {
    const before = buildRows(days[1]);
    const after = buildRows(days[2]);
    const changed = after.rows.filter((r) => r.exact !== before.row(r.metric).exact).map((r) => r.metric);
    expect(changed).toEqual(['distribution.sofr.volume']);
    expect(after.rows.map((r) => r.date)).toEqual(before.rows.map((r) => r.date));
    expect(before.row('distribution.sofr.volume').value).toBe(2941);
    expect(after.row('distribution.sofr.volume').value).toBe(2946);
    expect(after.row('liquidity.on_rrp').newer).toBe(true);
    expect(after.row('liquidity.srf').newer).toBe(true);
    expect(after.series.get('liquidity.srf')!.newestDate).toBe('2026-11-20');
  });
});
