import { describe, expect, it } from 'vitest';
import { parseStrictJson } from '../../src/core/json.js';
import type { PacketManifest, PacketReview } from '../../src/funding/schemas/packet.js';
import { makeTestApp } from '../helpers/app.js';
import { useFundingHarness } from './harness.js';

describe('sample mode', () => {
  const h = useFundingHarness({ mode: 'sample', start: '2026-11-20T15:30:00Z' });
  const capture = () => h.captured();

  it('captures from the bundled documents offline and serves latest marked "sample": true', async () => {
    const attempt = await capture();
    expect(attempt).toMatchObject({ outcome: 'packet_created', mode: 'sample', sample_day: 'day-1', review_asof: '2026-11-18' });
    const res = await h.app.inject({ url: '/v1/funding/latest' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-evidence-mode']).toBe('sample');
    const body = res.json();
    expect(body.sample).toBe(true);
    expect(body.observations.find((o: { metric_id: string }) => o.metric_id === 'liquidity.srf').value).toBe(0.005);
    const review = parseStrictJson((await h.app.inject({ url: `/packets/${attempt.packet_id}/review.json` })).rawPayload) as PacketReview;
    expect(review.sample).toBe(true);
    expect(review.publisher_notice).toMatch(/^Sample mode/);
    expect(review.publisher_lineage['policy.sofr']).toMatchObject({ source_url: 'sample:publishers/day-1/sofr.json', original_publisher_acquisition: false });
    const manifest = parseStrictJson((await h.app.inject({ url: `/packets/${attempt.packet_id}/manifest.json` })).rawPayload) as Record<string, unknown>;
    expect(manifest.sample).toBe(true);
    const history = await h.app.inject({ url: '/v1/funding/history' });
    expect(history.json().sample).toBe(true);
  });

  it('walks through the sample days so successive captures build a changes history, then wraps around', async () => {
    const day1 = await capture();
    h.clock.advance(900);
    const day2 = await capture();
    h.clock.advance(900);
    const day3 = await capture();
    expect([day1, day2, day3].map((a) => a.sample_day)).toEqual(['day-1', 'day-2', 'day-3']);
    expect([day1, day2, day3].map((a) => a.outcome)).toEqual(['packet_created', 'packet_created', 'packet_created']);

    const forward = (await h.app.inject({ url: `/v1/funding/changes?since=${day1.packet_id}&until=${day3.packet_id}` })).json();
    expect(forward.sample).toBe(true);
    expect(forward.changes.some((c: { kind: string }) => c.kind === 'new_observation_date')).toBe(true);
    const srf = forward.changes.find((c: { metric_id: string }) => c.metric_id === 'liquidity.srf');
    expect(srf.after.value).toBe(0);

    const revision = (await h.app.inject({ url: `/v1/funding/changes?since=${day2.packet_id}` })).json();
    expect(revision.changes).toContainEqual(expect.objectContaining({ metric_id: 'distribution.sofr.volume', kind: 'same_date_observation_changed' }));

    h.clock.advance(900);
    const again = await capture();
    expect(again).toMatchObject({ sample_day: 'day-1', outcome: 'packet_created', review_asof: '2026-11-18' });
  });

  it('lists the operations a sample day sets aside in the lineage, and reads IORB from the sample Board page when so configured', async () => {
    await capture();
    h.clock.advance(900);
    const day2 = await capture();
    const review = parseStrictJson((await h.app.inject({ url: `/packets/${day2.packet_id}/review.json` })).rawPayload) as PacketReview;
    expect(review.publisher_lineage['liquidity.on_rrp'].excluded_operations).toEqual([
      { close_time: '10:00', note: 'Small Value Exercise', operation_id: 'RRP 111926 99', reason: 'small_value_exercise' },
    ]);
    expect(review.publisher_lineage['liquidity.srf'].excluded_operations).toEqual([
      { close_time: '10:30', note: '', operation_id: 'RP 111926 99', reason: 'unscheduled_close_time' },
    ]);
    h.clock.advance(900);
    const day3 = await h.captured({ config: { iorbSource: 'board_iorb_page' } });
    expect(day3).toMatchObject({ sample_day: 'day-3', review_asof: '2026-11-19', outcome: 'packet_created' });
    const manifest = parseStrictJson((await h.app.inject({ url: `/packets/${day3.packet_id}/manifest.json` })).rawPayload) as PacketManifest;
    expect(manifest.publisher_receipts.iorb).toMatchObject({ source_id: 'board_iorb_page', source_url: 'sample:publishers/day-3/iorb-page.htm' });
  });

  it('marks evidence error bodies "sample": true, and leaves analysis error bodies in their upstream shape', async () => {
    await capture();
    for (const url of ['/v1/funding/history?limit=0', '/packets/pkt_nothing/review.json', '/v1/no-such-route']) {
      const res = await h.app.inject({ url });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.headers['x-evidence-mode']).toBe('sample');
      expect(res.json()).toMatchObject({ code: expect.any(String), sample: true });
    }
    const analysis = await h.app.inject({ method: 'POST', url: '/v1/market/assess', payload: { series: [] } });
    expect(analysis.statusCode).toBe(422);
    expect(analysis.headers['x-evidence-mode']).toBe('sample');
    expect(Object.keys(analysis.json())).toEqual(['error', 'code', 'path']);
  });

  it('never serves a sample packet as live evidence', async () => {
    await capture();
    const live = await makeTestApp({ maxEventLoopDelay: 0 }, { clock: h.clock, storage: h.storage });
    try {
      const res = await live.app.inject({ url: '/v1/funding/latest' });
      expect(res.statusCode).toBe(503);
      expect(res.json().code).toBe('evidence_not_captured');
      expect(res.headers['x-evidence-mode']).toBeUndefined();
    } finally {
      await live.app.close();
    }
  });
});
