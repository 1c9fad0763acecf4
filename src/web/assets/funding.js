// The funding view: the latest packet (polled every 5 minutes while the tab is visible,
// with If-None-Match so an unchanged packet costs a 304), re-verified in the browser before
// its downloads are enabled, a per-metric history across archived packets and the changes
// since a chosen packet.
//
// A packet is shown only while the service serves it as latest: when a poll fails (an
// error answer or no answer at all) the packet on screen is withdrawn — rows, clocks and
// downloads — because the service has no fallback to an older packet and neither has the
// page. History and changes read the archive and load on their own, so they stay readable
// while latest is unavailable.

import { call, errorOf, getJson, getBytes, showError, ApiError } from './api.js';
import { verifyPacket } from './verify.js';
import { drawChart, clearChart } from './charts.js';
import { setupConsent } from './consent.js';

export const POLL_MS = 5 * 60 * 1000;
const HISTORY_PACKETS = 48;

/** The nine metrics in packet order with the labels of the contract (funding-upstream §2.4). */
export const METRICS = [
  { id: 'policy.sofr', label: 'SOFR', unit: '%' },
  { id: 'policy.effr', label: 'Effective federal funds rate', unit: '%' },
  { id: 'policy.iorb', label: 'Interest on reserve balances', unit: '%' },
  { id: 'distribution.sofr.p99', label: 'SOFR 99th percentile', unit: '%' },
  { id: 'distribution.sofr.volume', label: 'SOFR volume', unit: '$B' },
  { id: 'liquidity.reserves', label: 'Reserve balances (weekly average)', detail: 'Reserve balances with Federal Reserve Banks, weekly average', unit: '$B' },
  { id: 'liquidity.tga', label: 'Treasury General Account (opening)', unit: '$B' },
  { id: 'liquidity.on_rrp', label: 'Overnight reverse repo', unit: '$B' },
  { id: 'liquidity.srf', label: 'Standing repo facility', detail: 'morning plus afternoon', unit: '$B' },
];
const METRIC = new Map(METRICS.map((m) => [m.id, m]));

let etag = null;
/** The packet on screen (null while none is current). */
let current = null;
/** The last packet the service served, kept only to recognise it again on a 304. */
let lastServed = null;
/** Bumped whenever what is on screen changes, so a slow verification cannot write over it. */
let generation = 0;
let lastPoll = 0;
let polling = null;
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

function metricCell(metricId) {
  const td = document.createElement('td');
  const known = METRIC.get(metricId);
  const label = document.createElement('span');
  label.className = 'metric-label';
  label.textContent = known ? known.label : metricId;
  td.append(label);
  if (known?.detail) {
    const detail = document.createElement('span');
    detail.className = 'metric-detail';
    detail.textContent = known.detail;
    td.append(detail);
  }
  const id = document.createElement('code');
  id.className = 'metric-id';
  id.textContent = metricId;
  td.append(id);
  return td;
}

function freshness(row) {
  if (row.newer_observation_available === true) return `${row.publisher_freshness}; newer observation exists (${row.canonical_latest_asof})`;
  return `${row.publisher_freshness}; latest as of ${row.canonical_latest_asof ?? 'unknown'}`;
}

function placeholderRow(body, text, columns) {
  const tr = document.createElement('tr');
  tr.className = 'placeholder';
  const td = cell(text);
  td.colSpan = columns;
  tr.append(td);
  body.append(tr);
}

function renderLatest(latest, checkedAt) {
  const table = $('observations');
  table.dataset.state = 'current';
  $('observations-caption').textContent = `The nine observations of the latest packet (${latest.packet_id})`;
  const body = table.tBodies[0];
  body.textContent = '';
  for (const row of latest.observations) {
    const tr = document.createElement('tr');
    tr.dataset.metric = row.metric_id;
    tr.append(
      metricCell(row.metric_id),
      cell(`${row.value} ${row.unit}`, 'num'),
      cell(row.observation_date),
      cell(row.cadence),
      cell(row.source),
      cell(freshness(row)),
      cell(`${row.review_asof} (${row.review_scope})`),
    );
    body.append(tr);
  }
  const clocks = $('packet-clocks');
  clocks.textContent = '';
  const items = [
    ['Packet', latest.packet_id, 'packet'],
    ['Source captured at', latest.source_captured_at, 'captured'],
    ['Archived at', latest.archived_at, 'archived'],
    ['Review as of', latest.review_asof ?? 'none', 'review'],
    ['Checked by the service at', checkedAt ?? 'unknown', 'checked'],
    ['Manifest SHA-256', latest.manifest_sha256, 'manifest'],
  ];
  for (const [term, value, key] of items) {
    const dt = document.createElement('dt');
    dt.textContent = term;
    const dd = document.createElement('dd');
    dd.dataset.clock = key;
    dd.textContent = value;
    clocks.append(dt, dd);
  }
}

function revokeDownloads() {
  while (blobUrls.length) URL.revokeObjectURL(blobUrls.pop());
}

/** Takes the packet off the screen: no rows, no clocks, no downloads, and says why. */
function withdraw(error) {
  generation += 1;
  const shown = current;
  current = null;
  const table = $('observations');
  table.dataset.state = 'withdrawn';
  $('observations-caption').textContent = 'No current packet';
  const body = table.tBodies[0];
  body.textContent = '';
  placeholderRow(body, shown ? `The packet shown before (${shown.packet_id}) is withdrawn: the service no longer serves it as latest, and there is no fallback to an older packet.` : 'No packet to show: the service has no current packet.', 7);
  $('packet-clocks').textContent = '';
  revokeDownloads();
  const list = $('downloads');
  list.textContent = '';
  const li = document.createElement('li');
  li.className = 'withdrawn';
  li.textContent = 'Downloads are withdrawn until the service serves a current packet again.';
  list.append(li);
  showError($('funding-error'), error);
  const code = error instanceof ApiError ? error.code : 'client_error';
  $('funding-status').textContent = shown
    ? `The latest packet is not available (${code}); the packet shown before is withdrawn.`
    : `The latest packet is not available (${code}).`;
}

async function renderDownloads(latest) {
  const mine = ++generation;
  const list = $('downloads');
  list.textContent = '';
  revokeDownloads();
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
  $('funding-status').textContent = `Packet ${latest.packet_id}: verifying the manifest and artifacts in this browser…`;
  const outcome = await verifyPacket(latest);
  // Withdrawn or replaced while the bytes were being checked: leave the screen alone.
  if (mine !== generation) return;
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
  $('funding-status').dataset.verified = failed === 0 ? 'true' : 'false';
}

function markRechecked(checkedAt) {
  const at = checkedAt ?? new Date().toISOString();
  const clock = document.querySelector('#packet-clocks dd[data-clock="checked"]');
  if (clock && checkedAt) clock.textContent = checkedAt;
  const status = $('funding-status');
  status.textContent = `${status.textContent.replace(/ \(rechecked .*\)$/, '')} (rechecked ${at}: unchanged)`;
}

/** Shows a packet the service serves as latest (again), verifying it before downloads. */
async function show(latest, checkedAt) {
  showError($('funding-error'), null);
  const changed = current?.packet_id !== latest.packet_id;
  current = latest;
  lastServed = latest;
  renderLatest(latest, checkedAt);
  if (changed) {
    // The archive list is loaded on its own at start; read it again once it lacks this packet.
    if (historyLoaded && !history.some((p) => p.packet_id === latest.packet_id)) void loadHistory();
    await renderDownloads(latest);
  }
}

async function pollOnce() {
  lastPoll = Date.now();
  const headers = { accept: 'application/json' };
  if (etag) headers['if-none-match'] = etag;
  try {
    const response = await call('/v1/funding/latest', { headers, cache: 'no-store' });
    const checkedAt = response.headers.get('x-evidence-checked-at');
    if (response.status === 304) {
      if (current) markRechecked(checkedAt);
      else if (lastServed) await show(lastServed, checkedAt); // the same packet is current again
      else {
        // Nothing to revalidate against: ask again without a tag.
        etag = null;
        await pollOnce();
      }
      return;
    }
    if (!response.ok) throw await errorOf(response);
    const latest = await response.json();
    etag = response.headers.get('etag');
    await show(latest, checkedAt);
  } catch (error) {
    withdraw(error instanceof Error ? error : new ApiError(0, 'client_error', String(error)));
  }
}

/** One poll at a time: a poll asked for while one runs waits for it instead of racing it. */
function poll() {
  if (!polling) polling = pollOnce().finally(() => (polling = null));
  return polling;
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
let historyLoaded = false;

function fillMetricPicker() {
  const metric = $('history-metric');
  if (metric.options.length > 0) return;
  for (const m of METRICS) {
    const option = document.createElement('option');
    option.value = m.id;
    option.textContent = `${m.label} (${m.unit})`;
    metric.append(option);
  }
}

/** Reads the archive's packet list; independent of latest, so it works while latest is 503. */
async function loadHistory() {
  fillMetricPicker();
  try {
    const body = await getJson('/v1/funding/history');
    history = body.packets.slice(-HISTORY_PACKETS);
    historyLoaded = true;
    const since = $('changes-since');
    const chosen = since.value;
    since.textContent = '';
    for (const packet of [...history].reverse()) {
      const option = document.createElement('option');
      option.value = packet.packet_id;
      option.textContent = `${packet.archived_at} (${packet.packet_id.slice(0, 23)})`;
      since.append(option);
    }
    if (chosen && history.some((p) => p.packet_id === chosen)) since.value = chosen;
    since.disabled = history.length === 0;
    await drawHistory();
  } catch (error) {
    history = [];
    historyLoaded = false;
    clearChart($('history-chart'));
    $('history-status').textContent = `History unavailable: ${error instanceof ApiError ? error.code : 'client_error'}: ${error.message}`;
  }
}

async function drawHistory() {
  const metricId = $('history-metric').value;
  if (!metricId) return;
  if (history.length === 0) {
    clearChart($('history-chart'));
    $('history-status').textContent = 'The archive holds no packets yet, so there is no history to draw.';
    return;
  }
  const x = [];
  const values = [];
  for (const packet of history) {
    const rows = await packetRows(packet.packet_id);
    const row = rows.find((r) => r.metric_id === metricId);
    x.push(Date.parse(packet.archived_at) / 1000);
    values.push(row ? row.value : null);
  }
  const label = METRIC.get(metricId)?.label ?? metricId;
  const unit = METRIC.get(metricId)?.unit;
  drawChart($('history-chart'), {
    x,
    series: [{ label, values, points: history.length < 3 }],
    time: true,
    xLabel: 'archived at (UTC)',
    yLabel: unit ? `${label} (${unit})` : label,
    caption: `${label} in each archived packet`,
  });
  $('history-status').textContent = `${history.length} archived packet(s) shown.`;
}

async function showChanges() {
  const body = $('changes').tBodies[0];
  body.textContent = '';
  showError($('changes-error'), null);
  const status = $('changes-status');
  // The packet list may have failed to load (service unreachable): try it again first.
  if (!historyLoaded) await loadHistory();
  const since = $('changes-since').value;
  if (!since) {
    status.textContent = historyLoaded
      ? 'There is nothing to compare: the archive holds no packet to choose yet.'
      : 'There is nothing to compare yet: the list of archived packets could not be loaded (see History above). Try again when the service answers.';
    return;
  }
  status.textContent = 'Loading the changes…';
  try {
    const answer = await getJson(`/v1/funding/changes?since=${encodeURIComponent(since)}`);
    const describe = (v) => `${v.value} ${v.unit} on ${v.observation_date}`;
    if (answer.changes.length === 0) placeholderRow(body, 'No differences between that packet and the latest.', 4);
    for (const change of answer.changes) {
      const tr = document.createElement('tr');
      tr.append(metricCell(change.metric_id), cell(change.kind), cell(describe(change.before)), cell(describe(change.after)));
      body.append(tr);
    }
    status.textContent = `Changes from ${answer.before} to ${answer.after}.`;
  } catch (error) {
    status.textContent = '';
    showError($('changes-error'), error);
  }
}

export function setupFunding() {
  consent = setupConsent();
  fillMetricPicker();
  $('history-metric').addEventListener('change', () => void drawHistory());
  $('changes-run').addEventListener('click', () => void showChanges());
  void poll();
  void loadHistory();
  setInterval(() => {
    if (document.visibilityState === 'visible') void poll();
  }, POLL_MS);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && Date.now() - lastPoll >= POLL_MS) void poll();
  });
}
