// The funding view: the latest packet (polled every 5 minutes while the tab is visible,
// with If-None-Match so an unchanged packet costs a 304), re-verified in the browser before
// its downloads are enabled, a per-metric history across archived packets and the changes
// since a chosen packet.

import { call, errorOf, getJson, getBytes, showError, ApiError } from './api.js';
import { verifyPacket } from './verify.js';
import { drawChart } from './charts.js';
import { setupConsent } from './consent.js';

export const POLL_MS = 5 * 60 * 1000;
const HISTORY_PACKETS = 48;

let etag = null;
let current = null;
let lastPoll = 0;
let consent;
const blobUrls = [];
const historyCache = new Map();

const $ = (id) => document.getElementById(id);

function cell(text, className) {
  const td = document.createElement('td');
  td.textContent = text;
  if (className) td.className = className;
  return td;
}

function freshness(row) {
  if (row.newer_observation_available === true) return `${row.publisher_freshness}; newer observation exists (${row.canonical_latest_asof})`;
  return `${row.publisher_freshness}; latest as of ${row.canonical_latest_asof ?? 'unknown'}`;
}

function renderLatest(latest, checkedAt) {
  const body = $('observations').tBodies[0];
  body.textContent = '';
  for (const row of latest.observations) {
    const tr = document.createElement('tr');
    tr.dataset.metric = row.metric_id;
    tr.append(
      cell(row.metric_id),
      cell(`${row.value} ${row.unit}`, 'num'),
      cell(row.observation_date),
      cell(row.cadence),
      cell(freshness(row)),
      cell(`${row.review_asof} (${row.review_scope})`),
    );
    body.append(tr);
  }
  const clocks = $('packet-clocks');
  clocks.textContent = '';
  const items = [
    ['Packet', latest.packet_id],
    ['Source captured at', latest.source_captured_at],
    ['Archived at', latest.archived_at],
    ['Review as of', latest.review_asof ?? 'none'],
    ['Checked by the service at', checkedAt ?? 'unknown'],
    ['Manifest SHA-256', latest.manifest_sha256],
  ];
  for (const [term, value] of items) {
    const dt = document.createElement('dt');
    dt.textContent = term;
    const dd = document.createElement('dd');
    dd.textContent = value;
    clocks.append(dt, dd);
  }
}

async function renderDownloads(latest) {
  const list = $('downloads');
  list.textContent = '';
  while (blobUrls.length) URL.revokeObjectURL(blobUrls.pop());
  const names = ['manifest.json', ...Object.keys(latest.artifacts).sort()];
  const items = new Map();
  for (const name of names) {
    const li = document.createElement('li');
    const link = document.createElement('a');
    link.textContent = `Download ${name}`;
    link.setAttribute('aria-disabled', 'true');
    link.dataset.file = name;
    const note = document.createElement('span');
    note.className = 'note';
    note.textContent = ' verifying…';
    li.append(link, note);
    list.append(li);
    items.set(name, { link, note });
  }
  const outcome = await verifyPacket(latest);
  const checks = [{ name: 'manifest.json', ...outcome.manifest }, ...outcome.artifacts];
  let failed = 0;
  for (const check of checks) {
    const { link, note } = items.get(check.name);
    if (check.ok) {
      const type = check.name.endsWith('.csv') ? 'text/csv' : 'application/json';
      const url = URL.createObjectURL(new Blob([check.bytes], { type }));
      blobUrls.push(url);
      link.href = url;
      link.download = `${latest.packet_id}-${check.name}`;
      link.removeAttribute('aria-disabled');
      note.className = 'ok';
      note.textContent = ' SHA-256 verified in this browser';
      link.addEventListener('click', () => void consent.downloaded(latest.packet_id));
    } else {
      failed += 1;
      link.removeAttribute('href');
      note.className = 'failed';
      note.textContent = ` verification failed, download disabled: ${check.reason}`;
    }
  }
  $('funding-status').textContent = failed === 0 ? `Packet ${latest.packet_id}: manifest and artifacts verified in this browser.` : `Packet ${latest.packet_id}: ${failed} check(s) failed; those downloads stay disabled.`;
}

async function poll() {
  lastPoll = Date.now();
  const headers = { accept: 'application/json' };
  if (etag) headers['if-none-match'] = etag;
  try {
    const response = await call('/v1/funding/latest', { headers, cache: 'no-store' });
    if (response.status === 304) {
      $('funding-status').textContent = `${$('funding-status').textContent.replace(/ \(rechecked .*\)$/, '')} (rechecked ${new Date().toISOString()}: unchanged)`;
      return;
    }
    if (!response.ok) throw await errorOf(response);
    const latest = await response.json();
    etag = response.headers.get('etag');
    showError($('funding-error'), null);
    const changed = !current || current.packet_id !== latest.packet_id;
    current = latest;
    renderLatest(latest, response.headers.get('x-evidence-checked-at'));
    if (changed) {
      await renderDownloads(latest);
      await loadHistory();
    }
  } catch (error) {
    showError($('funding-error'), error);
    $('funding-status').textContent = 'The latest packet is not available.';
  }
}

function parseCsv(text) {
  const lines = text.split('\r\n').filter((line) => line !== '');
  const header = lines[0].split(',');
  // Only metric_id, value and unit are read; they never need quoting.
  return lines.slice(1).map((line) => {
    const cells = line.split(',');
    return { metric_id: cells[header.indexOf('metric_id')], value: Number(cells[header.indexOf('value')]), unit: cells[header.indexOf('unit')] };
  });
}

async function packetRows(packetId) {
  if (!historyCache.has(packetId)) {
    const bytes = await getBytes(`/packets/${packetId}/observations.csv`);
    historyCache.set(packetId, parseCsv(new TextDecoder().decode(bytes)));
  }
  return historyCache.get(packetId);
}

let history = [];

async function loadHistory() {
  try {
    const body = await getJson('/v1/funding/history');
    history = body.packets.slice(-HISTORY_PACKETS);
    const since = $('changes-since');
    since.textContent = '';
    for (const packet of [...history].reverse()) {
      const option = document.createElement('option');
      option.value = packet.packet_id;
      option.textContent = `${packet.archived_at} (${packet.packet_id.slice(0, 23)})`;
      since.append(option);
    }
    const metric = $('history-metric');
    const chosen = metric.value;
    metric.textContent = '';
    for (const row of current?.observations ?? []) {
      const option = document.createElement('option');
      option.value = row.metric_id;
      option.textContent = `${row.metric_id} (${row.unit})`;
      metric.append(option);
    }
    if (chosen) metric.value = chosen;
    await drawHistory();
  } catch (error) {
    $('history-status').textContent = `History unavailable: ${error instanceof ApiError ? error.code : 'client_error'}: ${error.message}`;
  }
}

async function drawHistory() {
  const metricId = $('history-metric').value;
  if (!metricId || history.length === 0) return;
  const x = [];
  const values = [];
  for (const packet of history) {
    const rows = await packetRows(packet.packet_id);
    const row = rows.find((r) => r.metric_id === metricId);
    x.push(Date.parse(packet.archived_at) / 1000);
    values.push(row ? row.value : null);
  }
  drawChart($('history-chart'), { x, series: [{ label: metricId, values, points: history.length < 3 }], time: true, xLabel: 'archived at', yLabel: metricId });
  $('history-status').textContent = `${history.length} archived packet(s) shown.`;
}

async function showChanges() {
  const since = $('changes-since').value;
  const body = $('changes').tBodies[0];
  body.textContent = '';
  try {
    const answer = await getJson(`/v1/funding/changes?since=${encodeURIComponent(since)}`);
    showError($('changes-error'), null);
    const describe = (v) => `${v.value} ${v.unit} on ${v.observation_date}`;
    if (answer.changes.length === 0) {
      const tr = document.createElement('tr');
      const td = cell('No differences between that packet and the latest.');
      td.colSpan = 4;
      tr.append(td);
      body.append(tr);
    }
    for (const change of answer.changes) {
      const tr = document.createElement('tr');
      tr.append(cell(change.metric_id), cell(change.kind), cell(describe(change.before)), cell(describe(change.after)));
      body.append(tr);
    }
  } catch (error) {
    showError($('changes-error'), error);
  }
}

export function setupFunding() {
  consent = setupConsent();
  $('history-metric').addEventListener('change', () => void drawHistory());
  $('changes-run').addEventListener('click', () => void showChanges());
  void poll();
  setInterval(() => {
    if (document.visibilityState === 'visible') void poll();
  }, POLL_MS);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && Date.now() - lastPoll >= POLL_MS) void poll();
  });
}
