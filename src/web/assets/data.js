// The data view (group C): pick a dataset, filter by entity and dates, page through one
// stored snapshot (every page after the first names the first page's snapshot_id, so rows
// neither repeat nor go missing while sources change), see each source's status, clocks
// and rights, and download the page as CSV.

import { getJson, showError, ApiError } from './api.js';

const $ = (id) => document.getElementById(id);
export const PAGE_SIZE = 10;
// availability and context are the row's own state and caveats (data-upstream §3.3): a
// missing value is shown with the reason the source gives for it.
const COLUMNS = ['entity_id', 'entity_name', 'metric', 'value', 'unit', 'as_of', 'availability', 'source_status', 'rights_status', 'transport_status', 'context'];
const DIAGNOSTIC_COLUMNS = ['product', 'entity_id', 'availability', 'source_url', 'transport_status', 'retrieved_at', 'context'];
const SOURCE_COLUMNS = ['entity_id', 'source_url', 'transport_status', 'availability', 'context', 'retrieved_at', 'published_at', 'knowledge_time', 'rights_status', 'content_sha256'];

let state = { dataset: '', entity: '', from: '', to: '', offset: 0, snapshot: null, total: 0, nextOffset: null };

function query(extra = {}) {
  const params = new URLSearchParams({ dataset: state.dataset, limit: String(PAGE_SIZE), offset: String(state.offset) });
  if (state.entity) params.set('entity', state.entity);
  if (state.from) params.set('start_date', state.from);
  if (state.to) params.set('end_date', state.to);
  if (state.snapshot) params.set('snapshot', state.snapshot);
  for (const [k, v] of Object.entries(extra)) params.set(k, v);
  return `/api/v1/query?${params}`;
}

function table(el, columns, rows) {
  const head = el.tHead;
  head.textContent = '';
  const tr = document.createElement('tr');
  for (const column of columns) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = column;
    tr.append(th);
  }
  head.append(tr);
  const body = el.tBodies[0];
  body.textContent = '';
  for (const row of rows) {
    const line = document.createElement('tr');
    for (const column of columns) {
      const td = document.createElement('td');
      const value = row[column];
      td.textContent = value === null || value === undefined ? '—' : String(value);
      if (typeof value === 'number') td.className = 'num';
      else if (column === 'context' || column === 'source_url') td.className = 'long';
      line.append(td);
    }
    body.append(line);
  }
}

/** Takes the previous answer off the screen (its rows must not sit under new filters). */
function clearResults() {
  table($('data-table'), COLUMNS, []);
  table($('data-diagnostics'), DIAGNOSTIC_COLUMNS, []);
  $('data-diagnostics-status').textContent = '';
  $('data-page').textContent = '';
  $('data-snapshot').textContent = '';
  $('data-prev').disabled = true;
  $('data-next').disabled = true;
  const csv = $('data-csv');
  csv.removeAttribute('href');
  csv.removeAttribute('download');
  csv.setAttribute('aria-disabled', 'true');
}

function showDiagnostics(rows) {
  table($('data-diagnostics'), DIAGNOSTIC_COLUMNS, rows);
  $('data-diagnostics-status').textContent =
    rows.length === 0 ? 'None: every source of this dataset was read in the expected shape.' : `${rows.length} source(s) of this dataset could not be read or changed shape; their rows carry no values.`;
}

async function load() {
  showError($('data-error'), null);
  $('data-status').textContent = 'Loading…';
  try {
    const page = await getJson(query());
    showDiagnostics(page.diagnostics ?? []);
    state.snapshot = page.snapshot_id;
    state.total = page.total_rows;
    state.nextOffset = page.next_offset;
    table($('data-table'), COLUMNS, page.results);
    const first = page.returned_rows === 0 ? 0 : page.offset + 1;
    $('data-page').textContent = `Rows ${first}–${page.offset + page.returned_rows} of ${page.total_rows}`;
    $('data-snapshot').textContent = `Snapshot ${page.snapshot_id}, retrieved ${page.snapshot_retrieved_at}; transport ${page.transport_status}. Every page is read from this snapshot.`;
    $('data-prev').disabled = page.offset === 0;
    $('data-next').disabled = page.next_offset === null;
    $('data-csv').href = query({ format: 'csv' });
    $('data-csv').download = `${state.dataset}-${page.offset}.csv`;
    $('data-csv').removeAttribute('aria-disabled');
    $('data-status').textContent = page.description;
  } catch (error) {
    $('data-status').textContent = 'No rows shown: the query failed.';
    clearResults();
    showError($('data-error'), error);
  }
}

async function loadSources() {
  try {
    const sources = await getJson('/api/v1/sources');
    showError($('data-sources-error'), null);
    table($('data-sources'), SOURCE_COLUMNS, sources.results);
  } catch (error) {
    table($('data-sources'), SOURCE_COLUMNS, []);
    showError($('data-sources-error'), error);
  }
}

export async function setupData() {
  $('data-form').addEventListener('submit', (event) => {
    event.preventDefault();
    state = { ...state, dataset: $('data-dataset').value, entity: $('data-entity').value.trim(), from: $('data-from').value, to: $('data-to').value, offset: 0, snapshot: null };
    void load();
  });
  $('data-prev').addEventListener('click', () => {
    state.offset = Math.max(0, state.offset - PAGE_SIZE);
    void load();
  });
  $('data-next').addEventListener('click', () => {
    if (state.nextOffset === null) return;
    state.offset = state.nextOffset;
    void load();
  });
  try {
    const datasets = await getJson('/api/v1/datasets');
    const picker = $('data-dataset');
    for (const dataset of datasets) {
      const option = document.createElement('option');
      option.value = dataset.id;
      option.textContent = dataset.name;
      picker.append(option);
    }
    state.dataset = picker.value;
    await Promise.all([load(), loadSources()]);
  } catch (error) {
    showError($('data-error'), error instanceof ApiError ? error : new ApiError(0, 'client_error', String(error)));
  }
}
