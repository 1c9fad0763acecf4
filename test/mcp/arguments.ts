// One valid request per analysis tool, as the bytes REST receives (shared by the MCP tests).
import { narrativeRequest, seriesRequest } from '../helpers/analysis-requests.js';

/** One valid request per analysis tool, as the bytes REST receives. */
export const TOOL_ARGUMENTS: Record<string, string> = {
  ab_test: '{"a_successes": 500, "a_total": 5000, "b_successes": 750, "b_total": 5000, "a_label": "__proto__", "b_label": "1"}',
  did_it_change: '{"values": [1, 2, 1, 2, 1, 2, 1, 2, 8, 9]}',
  dyson_reference: '{"dimension": 3, "steps": 5, "seed": 6116}',
  forecast_next: '{"values": [10, 11, 10, 12, 11, 10, 11, 12, 13, 12, 11]}',
  market_assessment: JSON.stringify(seriesRequest({ series: 3, points: 64, allFields: true })),
  narrative_triage: JSON.stringify(narrativeRequest({ events: 24, titleLength: 80 })),
  real_or_sampling: '{"values": [5, 5.5, 6, 6.5, 7, 7.5, 8, 8.5, 9, 9.5, 2.5], "sample_sizes": [100, 110, 120, 130, 140, 150, 160, 170, 180, 190, 50]}',
  score_forecasts: '{"values": [10, 11, 10, 12, 11, 10, 11, 12, 13, 12, 11, 14, 12, 12, 13, 11, 15, 14, 14, 13]}',
  spectral_assessment: JSON.stringify(seriesRequest({ series: 4, points: 121, allFields: true })),
  which_metrics_matter: '{"evidence": {"signups": 40, "churn": 12.5, "latency": 0, "revenue": 12.5}, "valid_evalues": true, "alpha": 0.2}',
};
