import { describe, expect, it } from 'vitest';
import { encodeCanonicalDocument, parseStrictJson } from '../../src/core/json.js';
import { sha256Hex } from '../../src/core/hash.js';
import { renderObservationsCsv } from '../../src/funding/csv.js';
import { buildObservationRows, checkHorizonAge, reviewHorizon } from '../../src/funding/observations.js';
import {
  encodeContentArtifacts,
  encodeManifest,
  isPacketId,
  mintPacketId,
  sourceManifestSha256,
  type PublisherReceipts,
} from '../../src/funding/packet.js';
import { PUBLISHER_DOCUMENTS } from '../../src/funding/publishers/catalogue.js';
import { METRIC_IDS, PUBLISHER_KEYS, type PublisherDocument, type PublisherKey } from '../../src/funding/publishers/types.js';
import { rowDocument, sameObservations, type ObservationRow } from '../../src/funding/rows.js';
import { PacketVerificationError, verifyStoredPacket } from '../../src/funding/verify.js';
import type { PacketRow } from '../../src/funding/archive.js';
import type { PacketManifest, PacketReview } from '../../src/funding/schemas/packet.js';
import { instant, recordedDocuments, srfWithAmount } from './support.js';

function parseAll(docs: Record<PublisherKey, Uint8Array>): Map<PublisherKey, PublisherDocument> {
  return new Map(PUBLISHER_DOCUMENTS.map((spec) => [spec.key, spec.parse(docs[spec.key])]));
}

const CAPTURED = instant('2026-10-21T12:00:00.123456Z');
const EVALUATED = '2026-10-21T12:00:00.123456+00:00';

function receipts(docs: Record<PublisherKey, Uint8Array>): PublisherReceipts {
  return Object.fromEntries(PUBLISHER_KEYS.map((k) => [k, {
    source_url: `http://127.0.0.1:1/${k}`,
    retrieved_at: '2026-10-21T12:00:01.000000+00:00',
    sha256: sha256Hex(docs[k]),
    bytes: docs[k].byteLength,
  }])) as PublisherReceipts;
}

function build(docs = recordedDocuments(), adjustReceipts: (r: PublisherReceipts) => void = () => undefined) {
  const parsed = parseAll(docs);
  const reviewAsof = reviewHorizon(parsed);
  const rows = buildObservationRows(parsed, reviewAsof, EVALUATED);
  const packetId = '20261021T120000.123456Z-0123456789abcdef0123456789abcdef';
  const r = receipts(docs);
  adjustReceipts(r);
  const artifacts = encodeContentArtifacts({
    packetId, capturedAt: CAPTURED, acquiredAt: instant('2026-10-21T12:00:02Z'), reviewAsof, rows, receipts: r, sample: false,
  });
  const manifest = encodeManifest({
    packetId, archivedAt: instant('2026-10-21T12:00:03Z'), capturedAt: CAPTURED, reviewAsof, readyAtCapture: true, artifacts, receipts: r, sample: false,
  });
  const row: PacketRow = {
    packet_id: packetId, seq: 1, mode: 'live', archived_at_us: Number(instant('2026-10-21T12:00:03Z')), source_captured_at_us: Number(CAPTURED),
    review_asof: reviewAsof, review_scope: 'common_sofr_iorb_horizon', ready_at_capture: 1, manifest_sha256: manifest.sha256,
    source_manifest_sha256: sourceManifestSha256(r), manifest: manifest.bytes, review: artifacts.review, csv: artifacts.csv,
  };
  return { reviewAsof, rows, artifacts, manifest, row };
}

const byMetric = (rows: ObservationRow[]) => Object.fromEntries(rows.map((r) => [r.metric_id, r]));

describe('building the nine observations', () => {
  it('takes the newest common SOFR/IORB date as the review date and keeps the fixed metric order', () => {
    const { reviewAsof, rows } = build();
    expect(reviewAsof).toBe('2026-10-20');
    expect(rows.map((r) => r.metric_id)).toEqual([...METRIC_IDS]);
    expect(rows.map((r) => r.unit)).toEqual(['%', '%', '%', '%', '$B', '$B', '$B', '$B', '$B']);
  });

  it('keeps full publisher precision: ON RRP 0.576, reserves 2930.193, TGA 924.627, SRF 0.001', () => {
    const m = byMetric(build().rows);
    expect(m['liquidity.on_rrp'].value).toBe(0.576);
    expect(m['liquidity.reserves'].value).toBe(2930.193);
    expect(m['liquidity.tga'].value).toBe(924.627);
    expect(m['liquidity.srf'].value).toBe(0.001);
  });

  it('reports zero as a value, never as missing', () => {
    const docs = recordedDocuments();
    docs.srf = srfWithAmount(0);
    const m = byMetric(build(docs).rows);
    expect(m['liquidity.srf'].value).toBe(0);
    expect(m['liquidity.srf'].value_state).toBe('available');
  });

  it('dates each metric by its own observation and flags newer publisher observations', () => {
    const m = byMetric(build().rows);
    expect(m['liquidity.reserves'].observation_date < '2026-10-20').toBe(true);
    expect(m['liquidity.reserves'].cadence).toBe('weekly');
    // The PRATES document already holds 2026-10-21.
    expect(m['policy.iorb']).toMatchObject({ observation_date: '2026-10-20', canonical_latest_asof: '2026-10-21', newer_observation_available: true });
    expect(m['policy.sofr']).toMatchObject({ canonical_latest_asof: '2026-10-20', newer_observation_available: false });
  });

  it('refuses a horizon in the future or more than eight days old (live captures)', () => {
    expect(() => checkHorizonAge('2026-10-20', '2026-10-21')).not.toThrow();
    expect(() => checkHorizonAge('2026-10-13', '2026-10-21')).not.toThrow();
    expect(() => checkHorizonAge('2026-10-12', '2026-10-21')).toThrow(/more than 8 days/);
    expect(() => checkHorizonAge('2026-10-22', '2026-10-21')).toThrow(/after the capture date/);
  });

  it('fails when a series has nothing on or before the review date within its backstop (no fallback)', () => {
    const docs = recordedDocuments();
    const tga = JSON.parse(new TextDecoder().decode(docs.tga));
    tga.data = tga.data.filter((r: { record_date: string }) => r.record_date < '2026-10-12');
    tga.meta.count = tga.data.length;
    docs.tga = new TextEncoder().encode(JSON.stringify(tga));
    const parsed = parseAll(docs);
    expect(() => buildObservationRows(parsed, '2026-10-20', EVALUATED)).toThrow(/liquidity\.tga/);
  });

  it('compares observations without the capture clock', () => {
    const a = build().rows.map(rowDocument);
    const b: Record<string, unknown>[] = a.map((r) => ({ ...r, evaluated_at: '2026-10-21T13:00:00.000000+00:00' }));
    expect(sameObservations(a, b)).toBe(true);
    b[8] = { ...b[8], value: 0.002 };
    expect(sameObservations(a, b)).toBe(false);
  });
});

describe('packet artifacts in canonical bytes', () => {
  it('renders observations.csv with 15 columns, CRLF line ends, Python float repr and lowercase booleans', () => {
    const text = new TextDecoder().decode(build().artifacts.csv);
    const lines = text.split('\r\n');
    expect(lines.at(-1)).toBe('');
    expect(text.includes('\n') && !/[^\r]\n/.test(text)).toBe(true);
    expect(lines[0]).toBe('metric_id,value,unit,observation_date,source,cadence,publisher_freshness,value_state,evaluated_at,review_status,review_asof,review_scope,latest_per_instrument,canonical_latest_asof,newer_observation_available');
    expect(lines).toHaveLength(11);
    expect(lines[8]).toBe(`liquidity.on_rrp,0.576,$B,2026-10-20,New York Fed ON RRP operation results,daily,directly_verified,available,${EVALUATED},checks_passed,2026-10-20,common_sofr_iorb_horizon,false,2026-10-20,false`);
    expect(lines[5]).toMatch(/^distribution\.sofr\.volume,2914\.0,\$B,/);
    expect(lines[6]).toMatch(/^liquidity\.reserves,2930\.193,/);
    expect(lines[7]).toMatch(/^liquidity\.tga,924\.627,/);
    expect(lines[9]).toMatch(/^liquidity\.srf,0\.001,/);
  });

  it('quotes only cells holding a comma, quote or line break', () => {
    const row = { ...rowDocument(build().rows[0]), source: 'A, "B"' };
    expect(renderObservationsCsv([row]).split('\r\n')[1]).toContain(',"A, ""B""",');
    const zero = { ...rowDocument(build().rows[0]), value: 0 };
    expect(renderObservationsCsv([zero]).split('\r\n')[1]).toMatch(/^policy\.sofr,0\.0,%,/);
  });

  it('encodes review.json and manifest.json canonically (sorted keys, 2-space indent, ASCII, trailing newline)', () => {
    const { artifacts, manifest } = build();
    for (const bytes of [artifacts.review, manifest.bytes]) {
      const text = new TextDecoder().decode(bytes);
      expect(text.endsWith('}\n')).toBe(true);
      expect(/^[\x00-\x7f]*$/.test(text)).toBe(true);
      expect(encodeCanonicalDocument(parseStrictJson(text))).toBe(text);
    }
    const review = new TextDecoder().decode(artifacts.review);
    expect(review).toContain('      "value": 2914.0,\n');
    expect(review).toContain('"value": 0.001,');
  });

  it('records the SHA-256 of both content artifacts and all seven publisher receipts in the manifest', () => {
    const { artifacts, manifest } = build();
    const doc = parseStrictJson(manifest.bytes) as PacketManifest;
    expect(doc.schema).toBe('financial-evidence.public-packet.v1');
    expect(doc.artifacts).toEqual({ 'observations.csv': sha256Hex(artifacts.csv), 'review.json': sha256Hex(artifacts.review) });
    expect(Object.keys(doc.publisher_receipts).sort()).toEqual([...PUBLISHER_KEYS].sort());
    expect(doc.ready_at_capture).toBe(true);
    expect(doc.latest_per_instrument).toBe(false);
    expect(doc.knowledge_time_basis).toBe('first_verified_in_this_forward_archive');
    expect(doc.value_basis).toBe('independently_retrieved_original_publishers_at_full_source_precision');
    expect(Object.keys(doc.producer_modules_sha256)).toContain('src/funding/capture.ts');
    expect(doc.source_manifest_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(manifest.sha256).toBe(sha256Hex(manifest.bytes));
  });

  it('gives review.json our own lineage per metric, no FRED URL, and no invented Workspace release fields', () => {
    const doc = parseStrictJson(build().artifacts.review) as PacketReview;
    expect(doc.schema).toBe('financial-evidence.original-publisher-review.v1');
    expect(doc.results).toHaveLength(9);
    expect(doc.issues).toEqual([]);
    expect(doc.publisher_lineage['liquidity.srf']).toMatchObject({ field: 'sum(totalAmtAccepted) / 1000000000', original_publisher_acquisition: true });
    expect(JSON.stringify(doc)).not.toMatch(/fred/i);
    for (const key of ['observed_release', 'runtime_release', 'release_identity', 'manifest_sha256', 'age_seconds']) expect(doc).not.toHaveProperty(key);
    expect(Object.keys(doc.source_terms).sort()).toEqual(['federal_reserve_board', 'new_york_fed', 'treasury']);
  });

  it('mints packet ids from the capture instant plus 32 random hex digits', () => {
    const id = mintPacketId(CAPTURED);
    expect(id).toMatch(/^20261021T120000\.123456Z-[0-9a-f]{32}$/);
    expect(isPacketId(id)).toBe(true);
    expect(mintPacketId(CAPTURED)).not.toBe(id);
    for (const bad of ['../latest', `${id}x`, id.toUpperCase(), '２0261021T120000.123456Z-0123456789abcdef0123456789abcdef']) expect(isPacketId(bad)).toBe(false);
  });
});

describe('verifying a stored packet', () => {
  it('accepts the bytes it was built with', () => {
    const { row } = build();
    expect(verifyStoredPacket(row).packetId).toBe(row.packet_id);
  });

  it.each(['manifest', 'review', 'csv'] as const)('rejects a single changed byte in %s', (column) => {
    const { row } = build();
    const tampered = Buffer.from(row[column]);
    const at = tampered.indexOf('0.576') >= 0 ? tampered.indexOf('0.576') + 4 : tampered.length - 3;
    tampered[at] = tampered[at] === 0x37 ? 0x38 : 0x37;
    expect(() => verifyStoredPacket({ ...row, [column]: tampered })).toThrow(PacketVerificationError);
  });

  it('rejects a CSV that hashes to its manifest entry but is not the rendering of the review rows', () => {
    const { row } = build();
    const csv = Buffer.from(new TextDecoder().decode(row.csv).replace('0.576', '0.577'));
    // A consistent forgery of csv + manifest still fails: the CSV no longer renders the review.
    const manifest = JSON.parse(new TextDecoder().decode(row.manifest));
    manifest.artifacts['observations.csv'] = sha256Hex(csv);
    const manifestBytes = Buffer.from(encodeCanonicalDocument(manifest));
    expect(() => verifyStoredPacket({ ...row, csv, manifest: manifestBytes, manifest_sha256: sha256Hex(manifestBytes) })).toThrow(/not the rendering/);
  });

  it('accepts a source_id only on the IORB receipt, and only a known one', () => {
    expect(verifyStoredPacket(build(undefined, (r) => { r.iorb.source_id = 'board_iorb_page'; }).row).packetId).toMatch(/^20261021T/);
    expect(() => verifyStoredPacket(build(undefined, (r) => { (r.iorb as { source_id?: string }).source_id = 'fred'; }).row)).toThrow(/unknown source_id/);
    expect(() => verifyStoredPacket(build(undefined, (r) => { (r.sofr as { source_id?: string }).source_id = 'prates_ddp'; }).row)).toThrow(PacketVerificationError);
  });
});
