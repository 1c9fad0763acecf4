// Thin wrappers around uPlot (served from its npm package). Charts size themselves to
// their container so the page stays readable at 360 px. Time axes and legends are in UTC
// (the tables beside them show UTC too), and every chart has its values as a table in a
// <details> element right after it, for keyboard and screen-reader users.

const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#17becf', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22'];

export function colour(i) {
  return PALETTE[i % PALETTE.length];
}

const charts = new Map();
const tables = new Map();

function widthOf(el) {
  return Math.max(240, Math.floor(el.getBoundingClientRect().width || el.parentElement?.getBoundingClientRect().width || 320));
}

/** Seconds since the epoch as an ISO 8601 UTC instant (whole seconds when exact). */
export function utcText(seconds) {
  return new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
}

function valuesTable(el, { x, series, time, xLabel, caption }) {
  let details = tables.get(el);
  if (!details) {
    details = document.createElement('details');
    details.className = 'chart-data';
    if (el.id) details.id = `${el.id}-data`;
    el.after(details);
    tables.set(el, details);
  }
  details.textContent = '';
  details.hidden = false;
  const summary = document.createElement('summary');
  summary.textContent = 'Show the values of this chart as a table';
  const wrap = document.createElement('div');
  wrap.className = 'scroll';
  const table = document.createElement('table');
  const cap = document.createElement('caption');
  cap.textContent = caption || el.getAttribute('aria-label') || 'Chart values';
  const head = document.createElement('thead');
  const headRow = document.createElement('tr');
  for (const name of [xLabel || 'x', ...series.map((s) => s.label)]) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = name;
    headRow.append(th);
  }
  head.append(headRow);
  const body = document.createElement('tbody');
  x.forEach((xv, i) => {
    const tr = document.createElement('tr');
    const th = document.createElement('th');
    th.scope = 'row';
    th.textContent = time ? utcText(xv) : String(xv);
    tr.append(th);
    for (const s of series) {
      const td = document.createElement('td');
      const v = s.values[i];
      td.textContent = v === null || v === undefined ? '—' : String(v);
      td.className = 'num';
      tr.append(td);
    }
    body.append(tr);
  });
  table.append(cap, head, body);
  wrap.append(table);
  details.append(summary, wrap);
}

/** Removes a chart and its values table (old results must not stay beside a new error). */
export function clearChart(el, text = '') {
  const old = charts.get(el);
  if (old) old.destroy();
  charts.delete(el);
  el.textContent = text;
  delete el.dataset.drawn;
  const details = tables.get(el);
  if (details) {
    details.textContent = '';
    details.hidden = true;
  }
}

/**
 * Draws (or redraws) a chart into `el`. `series` is [{label, values, colour?, points?, dash?}];
 * `x` the shared x values; `time` true when x is seconds since the epoch (shown in UTC).
 */
export function drawChart(el, { x, series, time = false, height = 240, xLabel = '', yLabel = '', caption = '' }) {
  const old = charts.get(el);
  if (old) old.destroy();
  el.textContent = '';
  const xs = x.filter((v) => Number.isFinite(v));
  const single = xs.length > 0 && xs.every((v) => v === xs[0]);
  const pad = time ? 86400 : 1;
  const opts = {
    width: widthOf(el),
    height,
    // One x value would otherwise stretch the axis over years; show a day (or 1) around it.
    scales: { x: single ? { time, auto: false, range: [xs[0] - pad, xs[0] + pad] } : { time } },
    axes: [{ label: xLabel }, { label: yLabel, size: 60 }],
    legend: { show: true },
    series: [
      { label: xLabel || 'x' },
      ...series.map((s, i) => ({
        label: s.label,
        stroke: s.colour ?? colour(i),
        width: s.points ? 0 : 1.5,
        dash: s.dash,
        points: s.points ? { show: true, size: 7, fill: s.colour ?? colour(i) } : { show: false },
        spanGaps: false,
      })),
    ],
  };
  if (time) opts.tzDate = (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC');
  const chart = new uPlot(opts, [x, ...series.map((s) => s.values)], el);
  charts.set(el, chart);
  el.dataset.drawn = 'true';
  valuesTable(el, { x, series, time, xLabel, caption });
  return chart;
}

window.addEventListener('resize', () => {
  for (const [el, chart] of charts) chart.setSize({ width: widthOf(el), height: chart.height });
});
