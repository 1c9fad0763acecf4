// Thin wrappers around uPlot (served from its npm package). Charts size themselves to
// their container so the page stays readable at 360 px.

const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#17becf', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22'];

export function colour(i) {
  return PALETTE[i % PALETTE.length];
}

const charts = new Map();

function widthOf(el) {
  return Math.max(240, Math.floor(el.getBoundingClientRect().width || el.parentElement?.getBoundingClientRect().width || 320));
}

/**
 * Draws (or redraws) a chart into `el`. `series` is [{label, values, colour?, points?, dash?}];
 * `x` the shared x values; `time` true when x is seconds since the epoch.
 */
export function drawChart(el, { x, series, time = false, height = 240, xLabel = '', yLabel = '' }) {
  const old = charts.get(el);
  if (old) old.destroy();
  el.textContent = '';
  const opts = {
    width: widthOf(el),
    height,
    scales: { x: { time } },
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
  const chart = new uPlot(opts, [x, ...series.map((s) => s.values)], el);
  charts.set(el, chart);
  el.dataset.drawn = 'true';
  return chart;
}

window.addEventListener('resize', () => {
  for (const [el, chart] of charts) chart.setSize({ width: widthOf(el), height: chart.height });
});
