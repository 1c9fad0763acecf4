import { describe, expect, it } from 'vitest';

import { IORB_SOURCE_SETTINGS } from '../../../src/core/config.js';
import {
  DEFAULT_IORB_SOURCE,
  DEFAULT_PUBLISHER_BASES,
  IORB_DOCUMENTS,
  IORB_SOURCES,
  METRICS,
  METRIC_IDS,
  PUBLISHER_DOCUMENTS,
  PUBLISHER_KEYS,
  metricSpec,
  metricsFor,
  publisherDocumentSpec,
  publisherDocuments,
  publisherUrl,
} from '../../../src/funding/publishers/catalogue.js';
import { fixture } from './fixtures.js';

const VALID_FIXTURE: Record<string, string> = {
  sofr: 'sofr/valid.json', effr: 'effr/valid.json', iorb: 'iorb/daily-frequency.zip', reserves: 'reserves/valid.htm',
  on_rrp: 'on_rrp/valid.json', srf: 'srf/valid.json', tga: 'tga/valid.json',
};

describe('publisher catalogue', () => {
  it('lists the seven documents by their receipt keys, in order', () => {
    expect(PUBLISHER_KEYS).toEqual(['sofr', 'effr', 'iorb', 'reserves', 'on_rrp', 'srf', 'tga']);
    expect(PUBLISHER_DOCUMENTS.map((d) => d.key)).toEqual([...PUBLISHER_KEYS]);
  });

  it('points at the public publisher URLs by default', () => {
    expect(Object.fromEntries(PUBLISHER_DOCUMENTS.map((d) => [d.key, d.defaultUrl]))).toEqual({
      sofr: 'https://markets.newyorkfed.org/api/rates/secured/sofr/last/10.json',
      effr: 'https://markets.newyorkfed.org/api/rates/unsecured/effr/last/10.json',
      iorb: 'https://www.federalreserve.gov/datadownload/Output.aspx?rel=PRATES&filetype=zip',
      reserves: 'https://www.federalreserve.gov/releases/h41/current/h41.htm',
      on_rrp: 'https://markets.newyorkfed.org/api/rp/reverserepo/all/results/last/10.json',
      srf: 'https://markets.newyorkfed.org/api/rp/repo/all/results/last/20.json',
      tga: 'https://api.fiscaldata.treasury.gov/services/api/fiscal_service/v1/accounting/dts/operating_cash_balance',
    });
    expect(PUBLISHER_DOCUMENTS.map((d) => d.base)).toEqual(['nyfed', 'nyfed', 'frb', 'frb', 'nyfed', 'nyfed', 'treasury']);
    expect(PUBLISHER_DOCUMENTS.every((d) => d.maxBytes === 2_000_000)).toBe(true);
  });

  it('lists the nine metrics in their fixed order with unit, cadence, source and lineage field', () => {
    expect(METRIC_IDS).toEqual([
      'policy.sofr', 'policy.effr', 'policy.iorb', 'distribution.sofr.p99', 'distribution.sofr.volume',
      'liquidity.reserves', 'liquidity.tga', 'liquidity.on_rrp', 'liquidity.srf',
    ]);
    expect(METRICS.map((m) => [m.id, m.document, m.unit, m.cadence, m.source, m.field])).toEqual([
      ['policy.sofr', 'sofr', '%', 'daily', 'New York Fed Markets API SOFR', 'percentRate'],
      ['policy.effr', 'effr', '%', 'daily', 'New York Fed Markets API EFFR', 'percentRate'],
      ['policy.iorb', 'iorb', '%', 'daily', 'Federal Reserve Board PRATES RESBM_N.D', 'RESBM_N.D/OBS_VALUE'],
      ['distribution.sofr.p99', 'sofr', '%', 'daily', 'New York Fed Markets API SOFR', 'percentPercentile99'],
      ['distribution.sofr.volume', 'sofr', '$B', 'daily', 'New York Fed Markets API SOFR', 'volumeInBillions'],
      ['liquidity.reserves', 'reserves', '$B', 'weekly', 'Federal Reserve Board H.4.1 weekly average',
        'Reserve balances with Federal Reserve Banks / Week ended (millions / 1000)'],
      ['liquidity.tga', 'tga', '$B', 'daily', 'US Treasury Daily Treasury Statement opening balance', 'open_today_bal (millions / 1000)'],
      ['liquidity.on_rrp', 'on_rrp', '$B', 'daily', 'New York Fed ON RRP operation results', 'totalAmtAccepted / 1000000000'],
      ['liquidity.srf', 'srf', '$B', 'daily', 'New York Fed standing repo operation results', 'sum(totalAmtAccepted) / 1000000000'],
    ]);
  });

  it('has every metric produced by exactly one document, which its parser actually yields', () => {
    for (const id of METRIC_IDS) {
      expect(PUBLISHER_DOCUMENTS.filter((d) => d.metrics.includes(id))).toHaveLength(1);
      expect(publisherDocumentSpec(metricSpec(id).document).metrics).toContain(id);
    }
    for (const spec of PUBLISHER_DOCUMENTS) {
      const parsed = spec.parse(fixture(VALID_FIXTURE[spec.key]));
      expect(parsed.document).toBe(spec.key);
      expect(parsed.series.map((s) => s.metric)).toEqual(spec.metrics);
      expect(parsed.series.every((s) => s.newestDate !== null)).toBe(true);
    }
  });

  it('builds fetch URLs from configurable bases, including a path prefix and a trailing slash', () => {
    const local = { nyfed: 'http://127.0.0.1:9000/nyfed/', frb: 'http://127.0.0.1:9000/frb', treasury: 'http://127.0.0.1:9000/ust' };
    expect(publisherUrl('srf', local)).toBe('http://127.0.0.1:9000/nyfed/api/rp/repo/all/results/last/20.json');
    expect(publisherUrl('reserves', local)).toBe('http://127.0.0.1:9000/frb/releases/h41/current/h41.htm');
    expect(publisherUrl('sofr')).toBe(publisherDocumentSpec('sofr').defaultUrl);
    expect(DEFAULT_PUBLISHER_BASES.treasury).toBe('https://api.fiscaldata.treasury.gov');
  });

  it('adds the filtered query to the TGA URL and insists on its start date', () => {
    expect(publisherUrl('tga', DEFAULT_PUBLISHER_BASES, { tgaSince: '2026-10-13' })).toBe(
      'https://api.fiscaldata.treasury.gov/services/api/fiscal_service/v1/accounting/dts/operating_cash_balance'
      + '?filter=record_date:gte:2026-10-13,account_type:eq:Treasury%20General%20Account%20(TGA)%20Opening%20Balance'
      + '&fields=record_date,account_type,open_today_bal&sort=-record_date&page[size]=100',
    );
    expect(() => publisherUrl('tga')).toThrow(RangeError);
  });

  it('offers IORB from the Board\'s page as a second source, with its own URL, receipt id, row source and lineage field', () => {
    expect(IORB_SOURCES).toEqual([...IORB_SOURCE_SETTINGS]);
    expect(DEFAULT_IORB_SOURCE).toBe('prates_ddp');
    expect(IORB_DOCUMENTS.prates_ddp).toBe(publisherDocumentSpec('iorb'));
    expect(publisherDocumentSpec('iorb').sourceId).toBe('prates_ddp');
    const page = publisherDocumentSpec('iorb', 'board_iorb_page');
    expect(page).toMatchObject({ key: 'iorb', base: 'frb', sourceId: 'board_iorb_page', defaultUrl: 'https://www.federalreserve.gov/monetarypolicy/reserve-balances.htm' });
    expect(publisherUrl('iorb', DEFAULT_PUBLISHER_BASES, { iorbSource: 'board_iorb_page' })).toBe(page.defaultUrl);
    expect(publisherDocuments('board_iorb_page').map((d) => d.key)).toEqual([...PUBLISHER_KEYS]);
    expect(publisherDocuments('board_iorb_page').filter((d) => d.key !== 'iorb')).toEqual(PUBLISHER_DOCUMENTS.filter((d) => d.key !== 'iorb'));
    expect(PUBLISHER_DOCUMENTS.filter((d) => d.key !== 'iorb').every((d) => d.sourceId === undefined)).toBe(true);
    expect(metricSpec('policy.iorb', 'board_iorb_page')).toMatchObject({
      source: 'Federal Reserve Board interest on reserve balances page', field: 'IORB rate of the newest Effective Date on or before the observation date',
    });
    expect(metricsFor('board_iorb_page').filter((m) => m.id !== 'policy.iorb')).toEqual(METRICS.filter((m) => m.id !== 'policy.iorb'));
    const parsed = page.parse(fixture('iorb/board-page.htm'), { asOf: '2026-10-21' });
    expect(parsed.series.map((s) => s.metric)).toEqual(['policy.iorb']);
  });

  it('asks for every URL where the publisher serves the document itself: https, the www host, no path that redirects', () => {
    for (const d of [...PUBLISHER_DOCUMENTS, IORB_DOCUMENTS.board_iorb_page]) {
      const url = new URL(d.defaultUrl);
      expect(url.protocol).toBe('https:');
      if (d.base === 'frb') expect(url.host).toBe('www.federalreserve.gov');
      expect(url.pathname).not.toMatch(/\/$/);
    }
  });

  it('refuses unknown keys and metric ids', () => {
    expect(() => publisherDocumentSpec('fred' as never)).toThrow(RangeError);
    expect(() => metricSpec('policy.fed_funds' as never)).toThrow(RangeError);
  });
});
