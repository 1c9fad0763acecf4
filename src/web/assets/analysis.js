// The analysis view: a CSV panel (time, one column per series) becomes a market and a
// spectral request; the answers are drawn. The Dyson reference draws eigenvalue paths for
// a chosen dimension, number of steps and seed.

import { call, errorOf, postJson, showError, ApiError } from './api.js';
import { drawChart, clearChart, colour } from './charts.js';
import { parsePanel } from './panel.js';

const $ = (id) => document.getElementById(id);
const FLAGGED = new Set(['review', 'watch']);

function panelRequest(panel) {
  const spacing = panel.times.length > 1 ? (Date.parse(panel.times[1]) - Date.parse(panel.times[0])) / 1000 : 86400;
  return {
    as_of: panel.times[panel.times.length - 1],
    series: panel.columns.map((column) => ({
      id: column.id,
      kind: 'price',
      unit: 'index',
      source: { id: 'browser-panel', rights: 'permitted' },
      max_age_seconds: Math.max(1, spacing * 2),
      observations: panel.times.map((t, i) => ({ observed_at: t, value: column.values[i] })),
    })),
  };
}

function drawSpectral(result) {
  const windows = result.windows.filter((w) => w.status === 'assessed');
  if (windows.length === 0) {
    clearChart($('chart-eigen'), 'No window could be assessed.');
    clearChart($('chart-concentration'));
    return;
  }
  const x = windows.map((_, i) => i + 1);
  const n = Math.max(...windows.map((w) => w.eigenvalues.length));
  const series = [];
  for (let k = 0; k < n; k++) series.push({ label: `λ${k + 1}`, values: windows.map((w) => w.eigenvalues[k] ?? null), points: true });
  series.push({ label: 'noise band upper', values: windows.map((w) => w.reference.upper_edge), colour: '#555', dash: [6, 4] });
  series.push({ label: 'noise band lower', values: windows.map((w) => w.reference.lower_edge), colour: '#999', dash: [6, 4] });
  drawChart($('chart-eigen'), { x, series, xLabel: 'window', yLabel: 'eigenvalue' });
  drawChart($('chart-concentration'), {
    x,
    series: [
      { label: 'leading variance share', values: windows.map((w) => w.leading_variance_share), points: windows.length < 3 },
      { label: 'effective rank / series', values: windows.map((w) => w.effective_rank / w.eigenvalues.length), points: windows.length < 3 },
    ],
    xLabel: 'window',
    yLabel: 'share',
  });
}

function drawMarket(panel, result) {
  const x = panel.times.map((t) => Date.parse(t) / 1000);
  const series = [];
  const flags = $('market-flags');
  flags.textContent = '';
  result.series.forEach((record, i) => {
    const column = panel.columns.find((c) => c.id === record.id);
    if (!column) return;
    const base = column.values.find((v) => v !== null && v !== 0) ?? 1;
    const rebased = column.values.map((v) => (v === null ? null : (100 * v) / base));
    series.push({ label: record.id, values: rebased, colour: colour(i) });
    const li = document.createElement('li');
    li.textContent = `${record.id}: ${record.status}${record.reasons.length ? ` (${record.reasons.join(', ')})` : ''}`;
    flags.append(li);
    if (FLAGGED.has(record.status) && record.diagnostics) {
      const from = Date.parse(record.diagnostics.window_start) / 1000;
      const to = Date.parse(record.diagnostics.window_end) / 1000;
      series.push({ label: `${record.id} flagged (${record.status})`, values: rebased.map((v, j) => (x[j] >= from && x[j] <= to ? v : null)), colour: colour(i), points: true });
    }
  });
  drawChart($('chart-series'), { x, series, time: true, xLabel: 'time (UTC)', yLabel: 'rebased to 100' });
}

/** Takes the previous run's charts and flags off the screen. */
function clearResults() {
  for (const id of ['chart-eigen', 'chart-concentration', 'chart-series']) clearChart($(id));
  $('market-flags').textContent = '';
}

async function run(event) {
  event.preventDefault();
  const status = $('analysis-status');
  showError($('analysis-error'), null);
  clearResults();
  let panel;
  try {
    panel = parsePanel($('panel-csv').value);
  } catch (error) {
    status.textContent = '';
    showError($('analysis-error'), new ApiError(0, 'csv_not_readable', error.message));
    return;
  }
  status.textContent = 'Assessing…';
  try {
    const request = panelRequest(panel);
    const [market, spectral] = await Promise.all([postJson('/v1/market/assess', request), postJson('/v1/spectral/assess', request)]);
    drawSpectral(spectral);
    drawMarket(panel, market);
    status.textContent = `Market: ${market.status}. Spectral: ${spectral.status}, ${spectral.windows.length} window(s).`;
  } catch (error) {
    status.textContent = '';
    clearResults();
    showError($('analysis-error'), error);
  }
}

/** Fills the CSV box with the bundled panel; on any failure the box is left as it was. */
async function example() {
  const status = $('analysis-status');
  showError($('analysis-error'), null);
  status.textContent = 'Loading the example panel…';
  try {
    const response = await call('/assets/example-panel.csv', { headers: { accept: 'text/csv' } });
    if (!response.ok) throw await errorOf(response);
    const text = await response.text();
    $('panel-csv').value = text;
    status.textContent = 'The example panel is in the box; run the assessments when ready.';
  } catch (error) {
    status.textContent = '';
    const reason = error instanceof ApiError ? error : new ApiError(0, 'client_error', String(error));
    showError($('analysis-error'), new ApiError(reason.status, reason.code, `the example panel could not be loaded (${reason.message}); the CSV box was left unchanged`));
  }
}

async function dyson(event) {
  event.preventDefault();
  showError($('dyson-error'), null);
  const body = {};
  for (const name of ['dimension', 'steps', 'seed']) {
    const raw = $(`dyson-${name}`).value.trim();
    if (raw !== '') body[name] = Number(raw);
  }
  clearChart($('chart-dyson'));
  try {
    const result = await postJson('/v1/research/dyson', body);
    const x = result.path.map((p) => p.time);
    const n = result.parameters.dimension;
    const series = [];
    for (let k = 0; k < n; k++) series.push({ label: `λ${k + 1}`, values: result.path.map((p) => p.eigenvalues[k]) });
    drawChart($('chart-dyson'), { x, series, xLabel: 'time', yLabel: 'eigenvalue' });
  } catch (error) {
    clearChart($('chart-dyson'));
    showError($('dyson-error'), error);
  }
}

export function setupAnalysis() {
  $('analysis-form').addEventListener('submit', (event) => void run(event));
  $('panel-example').addEventListener('click', () => void example());
  $('panel-file').addEventListener('change', async () => {
    const file = $('panel-file').files[0];
    if (file) $('panel-csv').value = await file.text();
  });
  $('dyson-form').addEventListener('submit', (event) => void dyson(event));
}
