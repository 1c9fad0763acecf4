// A reconstruction of the upstream sample (8 events, focus ["EXAMPLE"]). The sample's
// request text is not published, so the titles of most events and all source details not
// shown are ours; the cluster ids depend only on member ids, so they must match exactly.
// The request digest cannot be checked without the original request bytes.
import { describe, expect, it } from 'vitest';
import { encodePythonBody } from '../../../src/core/json.js';
import { triageNarrative } from '../../../src/analysis/narrative/triage.js';
import type { NarrativeEvent } from '../../../src/analysis/narrative/types.js';

const DIVIDEND = 'Example Company raises dividend 10 percent';

const events: NarrativeEvent[] = [
  {
    id: 'synthetic-primary',
    title: DIVIDEND,
    published_at: '2026-10-08T06:00:00Z',
    entities: ['EXAMPLE'],
    source: { id: 'synthetic-issuer', kind: 'primary', family: 'synthetic-issuer', url: 'https://issuer.example.invalid/notice' },
    event_key: 'synthetic-dividend',
  },
  {
    id: 'synthetic-wire-copy',
    title: DIVIDEND,
    published_at: '2026-10-08T06:05:00Z',
    entities: ['EXAMPLE'],
    source: { id: 'synthetic-wire', kind: 'reporting', family: 'synthetic-syndicate' },
    event_key: 'synthetic-dividend',
  },
  {
    id: 'synthetic-syndicated-copy',
    title: DIVIDEND,
    published_at: '2026-10-08T06:20:00Z',
    entities: ['EXAMPLE'],
    source: { id: 'synthetic-portal', kind: 'reporting', family: 'synthetic-syndicate' },
  },
  {
    id: 'synthetic-changed-number',
    title: 'Example Company raises dividend 20 percent',
    published_at: '2026-10-08T07:00:00Z',
    entities: ['EXAMPLE'],
    source: { id: 'synthetic-commentary', kind: 'commentary', family: 'synthetic-commentary' },
    event_key: 'synthetic-dividend',
  },
  {
    id: 'synthetic-denial',
    title: 'Example Company says it has not changed its dividend',
    published_at: '2026-10-08T08:00:00Z',
    entities: ['EXAMPLE'],
    source: { id: 'synthetic-issuer', kind: 'primary', family: 'synthetic-issuer' },
  },
  {
    id: 'synthetic-unmapped',
    title: 'Forum post about a large company dividend',
    published_at: '2026-10-08T08:30:00Z',
    entities: [],
    source: { id: 'synthetic-forum', kind: 'commentary' },
  },
  {
    id: 'synthetic-future',
    title: 'Example Company schedules dividend call',
    published_at: '2026-10-08T11:00:00Z',
    available_at: '2026-10-08T11:01:00Z',
    entities: ['EXAMPLE'],
    source: { id: 'synthetic-issuer', kind: 'primary' },
  },
  {
    id: 'synthetic-other-entity',
    title: 'Other Company raises dividend 10 percent',
    published_at: '2026-10-08T07:30:00Z',
    entities: ['OTHER'],
    source: { id: 'synthetic-wire', kind: 'reporting' },
  },
];

describe('the upstream sample shape', () => {
  const r = triageNarrative({ events, as_of: '2026-10-08T10:00:00Z', focus: ['EXAMPLE'] });

  it('lists the response keys in the contract order', () => {
    expect(Object.keys(r)).toEqual([
      'schema', 'as_of', 'focus', 'status', 'policy', 'attention_queue', 'clusters', 'events',
      'conflict_candidates', 'deferred_cluster_ids', 'counts', 'limits', 'source_universe_complete',
      'execution_authority', 'request_sha256', 'policy_sha256',
    ]);
    expect(Object.keys(r.counts)).toEqual([
      'supplied', 'eligible_for_triage', 'distinct_wording_clusters', 'repeated_wording', 'queued', 'deferred',
    ]);
    for (const summary of r.clusters) {
      expect(Object.keys(summary)).toEqual([
        'cluster_id', 'representative_id', 'title', 'entities', 'published_at', 'source', 'member_ids',
        'report_count', 'declared_source_families', 'independence_verified', 'truth_assessed',
        'impact_assessed', 'relevance', 'event_keys',
      ]);
    }
    for (const entry of r.events) {
      expect(Object.keys(entry)).toEqual(['id', 'status', 'cluster_id', 'published_at', 'available_at', 'source', 'entities', 'title']);
    }
    expect(Object.keys(r.conflict_candidates[0])).toEqual(['event_key', 'cluster_ids', 'reason']);
  });

  it('reproduces the stated header, queue order, cluster ids, statuses, conflict and counts', () => {
    expect(r.schema).toBe('noisefloor.narrative-triage.v1');
    expect(r.as_of).toBe('2026-10-08T10:00:00Z');
    expect(r.focus).toEqual(['EXAMPLE']);
    expect(r.status).toBe('triaged');
    expect(encodePythonBody(r.policy)).toBe('{"max_age_seconds": 86400, "max_items": 20, "similarity_threshold": 0.8}');
    expect(r.attention_queue.map((c) => [c.cluster_id, c.representative_id])).toEqual([
      ['nf-100adc3235896c28', 'synthetic-primary'],
      ['nf-25d3e47a22ea658a', 'synthetic-changed-number'],
      ['nf-53b0f62eb2940cd7', 'synthetic-denial'],
      ['nf-6cbd151ae2a7b362', 'synthetic-unmapped'],
    ]);
    expect(r.clusters).toEqual(r.attention_queue);
    // The first summary is given in full by the contract, byte for byte.
    expect(encodePythonBody(r.attention_queue[0])).toBe(
      '{"cluster_id": "nf-100adc3235896c28", "representative_id": "synthetic-primary", ' +
        '"title": "Example Company raises dividend 10 percent", "entities": ["EXAMPLE"], "published_at": "2026-10-08T06:00:00Z", ' +
        '"source": {"id": "synthetic-issuer", "kind": "primary", "family": "synthetic-issuer", "url": "https://issuer.example.invalid/notice"}, ' +
        '"member_ids": ["synthetic-primary", "synthetic-syndicated-copy", "synthetic-wire-copy"], "report_count": 3, ' +
        '"declared_source_families": ["synthetic-issuer", "synthetic-syndicate"], "independence_verified": false, ' +
        '"truth_assessed": false, "impact_assessed": false, "relevance": "matches_focus", "event_keys": ["synthetic-dividend"]}',
    );
    const changed = r.attention_queue[1];
    expect(changed.title).toBe('Example Company raises dividend 20 percent');
    expect(changed.source).toEqual({ id: 'synthetic-commentary', kind: 'commentary', family: 'synthetic-commentary' });
    expect(changed.report_count).toBe(1);
    expect(changed.event_keys).toEqual(['synthetic-dividend']);
    expect(r.attention_queue[2].source.kind).toBe('primary');
    expect(r.attention_queue[2].event_keys).toEqual([]);
    expect(r.attention_queue[3].relevance).toBe('unmapped');
    expect(r.attention_queue[3].source.kind).toBe('commentary');

    expect(r.events.map((e) => [e.id, e.status, e.cluster_id])).toEqual([
      ['synthetic-changed-number', 'representative', 'nf-25d3e47a22ea658a'],
      ['synthetic-denial', 'representative', 'nf-53b0f62eb2940cd7'],
      ['synthetic-future', 'not_yet_available', null],
      ['synthetic-other-entity', 'outside_focus', null],
      ['synthetic-primary', 'representative', 'nf-100adc3235896c28'],
      ['synthetic-syndicated-copy', 'repeated_wording', 'nf-100adc3235896c28'],
      ['synthetic-unmapped', 'unmapped_entity', 'nf-6cbd151ae2a7b362'],
      ['synthetic-wire-copy', 'repeated_wording', 'nf-100adc3235896c28'],
    ]);
    const future = r.events.find((e) => e.id === 'synthetic-future')!;
    expect([future.published_at, future.available_at]).toEqual(['2026-10-08T11:00:00Z', '2026-10-08T11:01:00Z']);
    expect(r.events.find((e) => e.id === 'synthetic-unmapped')!.entities).toEqual([]);

    expect(r.conflict_candidates).toEqual([
      {
        event_key: 'synthetic-dividend',
        cluster_ids: ['nf-100adc3235896c28', 'nf-25d3e47a22ea658a'],
        reason: 'different_wording_or_quantities_requires_review',
      },
    ]);
    expect(r.deferred_cluster_ids).toEqual([]);
    expect(r.counts).toEqual({ supplied: 8, eligible_for_triage: 6, distinct_wording_clusters: 4, repeated_wording: 2, queued: 4, deferred: 0 });
    expect(r.source_universe_complete).toBe(false);
    expect(r.execution_authority).toBe(false);
    expect(r.request_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(r.policy_sha256).toBe('7a5e754eadf2271d6b67a578f5efd96418edc5435fbe3efacf5361961f615689');
  });

  it('carries seven fixed caveats in our own words', () => {
    expect(r.limits).toHaveLength(7);
    expect(new Set(r.limits).size).toBe(7);
    expect(r.limits.every((s) => typeof s === 'string' && s.length > 20)).toBe(true);
    const again = triageNarrative({ events: [], as_of: '2026-10-08T10:00:00Z' });
    expect(again.limits).toEqual(r.limits);
  });
});
