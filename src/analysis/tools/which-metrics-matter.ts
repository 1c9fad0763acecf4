// which_metrics_matter: ranks a board of watched metrics by their evidence and, only when
// the caller asserts that every value is a valid e-value, selects with e-BH (Wang & Ramdas,
// arXiv:2009.02824): the largest k with e_(k) >= N / (alpha k) selects the top k. Without
// that assertion the ranking is descriptive and nothing is selected. Change-monitoring
// statistics (did_it_change) are not e-values and do not qualify.
import { AppError } from '../../core/errors.js';
import { keysInOrder } from '../../core/json.js';
import { compareCodePoints } from '../../core/strings.js';
import { formatGeneral } from '../numeric/printf.js';
import type { WhichMetricsMatterRequest } from '../schemas/tools.js';
import { TOOL_DEFAULTS } from '../schemas/tools.js';
import { ToolErrors } from './errors.js';
import { fin } from './finite.js';
import { entryFloat, PyRecord, type PyObject } from './py.js';

const ASSUMPTIONS: readonly string[] = [
  'Each value is nonnegative and, under its null hypothesis, has expectation at most 1.',
  'The null hypotheses, the observation windows and the set of metrics were fixed before the values were seen.',
  'Raw change statistics, such as the monitoring statistic of did_it_change, are not e-values.',
  'The error bound covers this family of metrics only, not every board ever reviewed.',
  'Setting valid_evalues only records what the caller asserts; nothing here verifies it.',
];

const NOTE = 'A selection marks metrics for human review; it is not a recommendation to trade.';

interface Entry {
  metric: string;
  value: number;
}

function readingFor(valid: boolean, k: number, total: number): string {
  if (total === 0) return 'No metrics were given, so nothing was ranked or selected.';
  if (!valid) {
    return `The ${total} metrics are ranked descriptively; none is selected because the values were not confirmed to be valid e-values.`;
  }
  if (k > 0) return `${k} of ${total} metrics selected by e-BH, conditional on every value being a valid e-value.`;
  return `None of the ${total} metrics was selected by e-BH. That is not proof that none of them has an effect.`;
}

export function whichMetricsMatter(request: WhichMetricsMatterRequest): PyObject {
  const evidence = request.evidence;
  const alpha = request.alpha ?? TOOL_DEFAULTS.which_metrics_matter.alpha;
  const valid = request.valid_evalues ?? TOOL_DEFAULTS.which_metrics_matter.valid_evalues;
  const names = keysInOrder(evidence);
  if (names.includes('')) {
    throw new AppError(ToolErrors.empty_metric_name, 'every metric in evidence needs a non-empty name', { path: '/evidence/' });
  }
  const total = names.length;
  const entries: Entry[] = names.map((metric) => ({ metric, value: entryFloat(evidence, metric) }));
  const ranked = entries.slice().sort((a, b) => (b.value - a.value) || compareCodePoints(a.metric, b.metric));

  let k = 0;
  if (valid) {
    for (let j = 1; j <= total; j++) if (ranked[j - 1].value >= total / (alpha * j)) k = j;
  }
  const selected = ranked
    .slice(0, k)
    .map((e) => e.metric)
    .sort(compareCodePoints);
  const threshold = valid ? fin(total / (alpha * Math.max(k, 1)), 'selection threshold', '/alpha') : null;
  let sum = 0;
  for (const e of entries) sum += e.value / total;
  const mean = fin(sum, 'merged evidence', '/evidence');

  return new PyRecord()
    .set('selected', selected)
    .float('alpha', alpha)
    .int('k', k)
    .int('n_watched', total)
    .float('threshold', threshold)
    .float('board_evidence', valid ? mean : null)
    .float('descriptive_mean', mean)
    .set(
      'ranked',
      ranked.map((e) => new PyRecord().set('metric', e.metric).float('evidence', e.value).build()),
    )
    .set('valid_evalues', valid)
    .set('validity', valid ? 'conditional_on_valid_evalues' : 'unverified_inputs')
    .set(
      'guarantee',
      valid
        ? `If every supplied value is a valid e-value, e-BH keeps the expected share of false selections in this family at or below ${formatGeneral(alpha)}, whatever the dependence between the metrics.`
        : null,
    )
    .set('assumptions', [...ASSUMPTIONS])
    .set('reading', readingFor(valid, k, total))
    .set(
      'method',
      valid
        ? 'e-BH (arXiv:2009.02824): rank the e-values from largest to smallest and select the top k for the largest k whose value is at least N / (alpha k).'
        : 'Descriptive ranking by value, largest first, ties by name; no selection rule is applied.',
    )
    .set('note', NOTE)
    .build();
}
