// Every real-shaped publisher document and variant, end to end: served by a local HTTP
// server the way the publisher serves it, captured into a packet (or failed with a
// reason that names the document), and read back through the HTTP routes.

import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseStrictJson } from '../../src/core/json.js';
import type { Config } from '../../src/core/config.js';
import { captureOnce } from '../../src/funding/capture.js';
import { newestAttempt } from '../../src/funding/archive.js';
import { startCaptureScheduler } from '../../src/funding/scheduler.js';
import type { PublisherKey } from '../../src/funding/publishers/types.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { fixtureBytes, liveConfig, startPublisherServer, testClock, type PublisherServer, type TestClock } from './support.js';

type Review = {
  transformations: string[];
  results: { metric_id: string; value: number; observation_date: string; source: string; canonical_latest_asof: string }[];
  publisher_lineage: Record<string, Record<string, unknown>>;
};
type Manifest = { publisher_receipts: Record<string, Record<string, unknown>> };

describe('real-shaped publisher documents through the local publisher server', () => {
  let server: PublisherServer;
  let clock: TestClock;
  let t: TestApp;

  beforeEach(async () => {
    server = await startPublisherServer();
    clock = testClock();
    t = await makeTestApp({ ...liveConfig(server), maxEventLoopDelay: 0 }, { clock });
  });
  afterEach(async () => {
    await t.close();
    await server.close();
  });

  const capture = async (overrides: Partial<Config> = {}) => {
    const result = await captureOnce({
      storage: t.storage, config: liveConfig(server, overrides), clock, fetchLimits: { maxBytes: 2_000_000, socketTimeoutMs: 2000, deadlineMs: 3000 },
    });
    if (!result.ran) throw new Error('capture did not run');
    return result.attempt;
  };
  const packet = async (id: string) => ({
    review: parseStrictJson((await t.app.inject({ url: `/packets/${id}/review.json` })).rawPayload) as Review,
    manifest: parseStrictJson((await t.app.inject({ url: `/packets/${id}/manifest.json` })).rawPayload) as Manifest,
  });
  const row = (review: Review, metric: string) => review.results.find((r) => r.metric_id === metric)!;
  const serve = (key: PublisherKey, fixture: string) => {
    server.documents[key] = { body: fixtureBytes(fixture) };
  };

  it('captures the baseline documents (daily PRATES package, real Fiscal Data metadata, redesigned H.4.1 page)', async () => {
    const attempt = await capture();
    expect(attempt).toMatchObject({ outcome: 'packet_created', review_asof: '2026-10-20', document: null, reason: null });
    const iorbRequest = server.requests.find((r) => r.path.startsWith('/datadownload/'));
    expect(iorbRequest?.path).toBe('/datadownload/Output.aspx?rel=PRATES&filetype=zip');
    const { review, manifest } = await packet(attempt.packet_id!);
    expect(row(review, 'policy.iorb')).toMatchObject({ value: 3.9, observation_date: '2026-10-20', canonical_latest_asof: '2026-10-21',
      source: 'Federal Reserve Board PRATES RESBM_N.D' });
    expect(row(review, 'liquidity.reserves')).toMatchObject({ value: 2930.193, observation_date: '2026-10-14' });
    expect(row(review, 'liquidity.tga')).toMatchObject({ value: 924.627, observation_date: '2026-10-20' });
    expect(manifest.publisher_receipts.iorb).toMatchObject({ source_id: 'prates_ddp', source_url: `${server.base}/datadownload/Output.aspx?rel=PRATES&filetype=zip` });
    expect(review.publisher_lineage['policy.iorb']).toMatchObject({ source_id: 'prates_ddp', field: 'RESBM_N.D/OBS_VALUE' });
    for (const key of ['sofr', 'effr', 'reserves', 'on_rrp', 'srf', 'tga']) expect(manifest.publisher_receipts[key]).not.toHaveProperty('source_id');
    for (const lineage of Object.values(review.publisher_lineage)) expect(lineage).not.toHaveProperty('excluded_operations');
    expect(review.transformations).toHaveLength(4);
  });

  it.each([
    ['sofr', 'sofr/real-shape.json'],
    ['effr', 'effr/real-shape.json'],
    ['tga', 'tga/legacy-meta.json'],
    ['reserves', 'reserves/entities-and-spacing.htm'],
  ] as const)('%s served as %s gives the same nine rows as the baseline', async (key, fixture) => {
    const baseline = await capture();
    serve(key, fixture);
    clock.advance(900);
    const attempt = await capture();
    expect(attempt).toMatchObject({ outcome: 'packet_reverified', packet_id: baseline.packet_id });
  });

  it('finds reserve balances by label and header on an H.4.1 page whose rows shifted', async () => {
    serve('reserves', 'reserves/shifted-rows.htm');
    const attempt = await capture();
    expect(attempt.outcome).toBe('packet_created');
    const { review } = await packet(attempt.packet_id!);
    expect(row(review, 'liquidity.reserves')).toMatchObject({ value: 2930.193, observation_date: '2026-10-14' });
    expect(review.publisher_lineage['liquidity.reserves'].field).toBe('Reserve balances with Federal Reserve Banks / Week ended (millions / 1000)');
  });

  it('sums only the regular operations on days with small value exercises and lists the others in the lineage', async () => {
    serve('on_rrp', 'on_rrp/small-value-exercise.json');
    serve('srf', 'srf/small-value-exercise.json');
    const attempt = await capture();
    expect(attempt.outcome).toBe('packet_created');
    const { review } = await packet(attempt.packet_id!);
    expect(row(review, 'liquidity.on_rrp')).toMatchObject({ value: 0.576, observation_date: '2026-10-20' });
    expect(row(review, 'liquidity.srf')).toMatchObject({ value: 0.001, observation_date: '2026-10-20' });
    expect(review.publisher_lineage['liquidity.on_rrp'].excluded_operations).toEqual([
      { close_time: '10:00', note: 'Small Value Exercise', operation_id: 'RRP 102026 99', reason: 'small_value_exercise' },
    ]);
    expect(review.publisher_lineage['liquidity.srf'].excluded_operations).toEqual([
      { close_time: '10:30', note: 'Small Value Exercise', operation_id: 'RP 102026 99', reason: 'small_value_exercise' },
    ]);
    expect(review.publisher_lineage['policy.sofr']).not.toHaveProperty('excluded_operations');
    const latest = await t.app.inject({ url: '/v1/funding/latest' });
    expect(latest.statusCode).toBe(200);
  });

  it.each(['iorb/board-page.htm', 'iorb/board-page-split.htm'])('reads IORB from the Board page (%s) when configured, and says so in the receipt', async (fixture) => {
    serve('iorb', fixture);
    const attempt = await capture({ iorbSource: 'board_iorb_page' });
    expect(attempt).toMatchObject({ outcome: 'packet_created', review_asof: '2026-10-20' });
    expect(server.requests.some((r) => r.path === '/monetarypolicy/reserve-balances.htm')).toBe(true);
    expect(server.requests.some((r) => r.path.startsWith('/datadownload/'))).toBe(false);
    const { review, manifest } = await packet(attempt.packet_id!);
    expect(manifest.publisher_receipts.iorb).toMatchObject({ source_id: 'board_iorb_page', source_url: `${server.base}/monetarypolicy/reserve-balances.htm` });
    // The page is read as of the capture day: its newest day is 2026-10-21.
    expect(row(review, 'policy.iorb')).toMatchObject({
      value: 3.9, observation_date: '2026-10-20', canonical_latest_asof: '2026-10-21', source: 'Federal Reserve Board interest on reserve balances page',
    });
    expect(review.publisher_lineage['policy.iorb']).toMatchObject({ source_id: 'board_iorb_page',
      field: 'IORB rate of the newest Effective Date on or before the observation date' });
    expect(review.transformations).toHaveLength(5);
    expect(review.transformations[4]).toMatch(/^IORB was read from the Board's table of rate changes/);
  });

  it('fails the capture, publishing nothing, when the newest SOFR day is a weekend day', async () => {
    const doc = JSON.parse(new TextDecoder().decode(fixtureBytes('sofr/valid.json'))) as { refRates: { effectiveDate: string }[] };
    doc.refRates.splice(0, 2);
    doc.refRates[0].effectiveDate = '2026-10-18'; // a Sunday, newer than every other SOFR day left
    server.documents.sofr = { body: Buffer.from(JSON.stringify(doc)) };
    const attempt = await capture();
    expect(attempt).toMatchObject({ outcome: 'failed', error_code: 'publisher_document_invalid', document: 'sofr', reason: 'document_not_business_day', packet_id: null });
    expect(attempt.error).toMatch(/SOFR is dated 2026-10-18, a Sunday/);
    expect((await t.app.inject({ url: '/v1/funding/latest' })).statusCode).toBe(503);
  });

  it('records which document failed and why, in the attempt report, the stored attempt and history', async () => {
    serve('reserves', 'reserves/label-missing.htm');
    const attempt = await capture();
    expect(attempt).toMatchObject({ outcome: 'failed', error_code: 'publisher_document_invalid', document: 'reserves', reason: 'document_row_missing' });
    expect(attempt.error).toMatch(/^publisher_document_invalid: Board H\.4\.1 page \(reserves, document_row_missing\): .*"Reserve balances with Federal Reserve Banks"/);
    const stored = await newestAttempt(t.storage.db, 'live');
    expect(stored!.error).toBe(attempt.error);
    const history = (await t.app.inject({ url: '/v1/funding/history' })).json();
    expect(history.latest_attempt).toMatchObject({ outcome: 'failed', error: attempt.error });
  });

  it.each([
    ['tga', 'tga/data-type-string.json', 'publisher_document_invalid', 'document_data_type_mismatch'],
    ['tga', 'tga/amount-in-dollars.json', 'publisher_document_invalid', 'document_implausible_amount'],
    ['iorb', 'iorb/valid.xml', 'publisher_document_invalid', 'document_bad_zip'],
    ['reserves', 'reserves/two-tables.htm', 'publisher_document_invalid', 'document_table_ambiguous'],
  ] as const)('fails on %s served as %s with a specific reason', async (key, fixture, code, reason) => {
    serve(key, fixture);
    const attempt = await capture();
    expect(attempt).toMatchObject({ outcome: 'failed', error_code: code, document: key, reason });
    expect(attempt.error).toContain(`(${key}, ${reason}`);
  });

  it('names the redirect target and the other documents that failed in the same attempt', async () => {
    server.documents.iorb = { status: 301, body: '', headers: { location: 'https://www.federalreserve.gov/datadownload/' } };
    server.documents.srf = { status: 503, body: 'maintenance' };
    const attempt = await capture();
    expect(attempt).toMatchObject({ outcome: 'failed', error_code: 'publisher_unavailable', document: 'iorb', reason: 'fetch_redirect' });
    expect(attempt.error).toContain('(iorb, fetch_redirect): answered 301 (redirect to https://www.federalreserve.gov/datadownload/)');
    expect(attempt.error).toMatch(/; also failed: srf$/);
  });

  it('names the stale document when the horizon is too old', async () => {
    clock.set('2026-10-29T12:00:00Z');
    const attempt = await capture();
    expect(attempt).toMatchObject({ outcome: 'failed', error_code: 'publisher_observation_missing', document: 'sofr', reason: 'horizon_stale' });
    expect(attempt.error).toContain('newest SOFR date: 2026-10-20');
  });

  it('logs the failed document and reason from the scheduler', async () => {
    serve('on_rrp', 'on_rrp/wrong-close-time.json');
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const scheduler = startCaptureScheduler({
      config: { ...liveConfig(server), captureInterval: 3600 }, storage: t.storage, clock, logger: pino({ level: 'info' }, sink),
    })!;
    await scheduler.idle();
    await scheduler.stop();
    const failed = lines.find((l) => l.msg === 'funding capture attempt failed');
    expect(failed).toMatchObject({ error_code: 'publisher_document_invalid', document: 'on_rrp', reason: 'document_no_regular_operation' });
    expect(failed!.error).toMatch(/\(on_rrp, document_no_regular_operation at \/repo\/operations\/0\/closeTime\): .*"13:30".*13:15/);
  });
});
