// ab_test: a peek-safe comparison of two Bernoulli arms. Each arm gets an anytime-valid
// confidence sequence at half the error level; a winner is declared only once one arm's
// interval lies entirely above the other's. The result is keyed by the caller's arm labels,
// so those become result members in the order the reference writes them.
import { AppError } from '../../core/errors.js';
import { formatGeneral } from '../numeric/printf.js';
import { pyround } from '../numeric/pyround.js';
import type { AbTestRequest } from '../schemas/tools.js';
import { TOOL_DEFAULTS } from '../schemas/tools.js';
import { confidenceSequence } from './confidence-sequence.js';
import { ToolErrors } from './errors.js';
import { PyRecord, type PyObject } from './py.js';

/** Result members a label may not replace. */
export const RESERVED_RESULT_KEYS: readonly string[] = [
  'decided', 'winner', 'reading', 'alpha', 'safe_to_peek', 'method', 'guarantee', 'assumptions', 'validity',
  'observed_difference_pp', 'what_would_decide_it',
];

const ASSUMPTIONS: readonly string[] = [
  'Each trial in an arm is a Bernoulli outcome whose success probability stays the same, given everything before it.',
  'The counts are cumulative totals of one experiment: no trials dropped, selected after the fact or counted twice.',
  'Any adaptive allocation between the arms was decided from past outcomes only, never from future ones.',
  'The uniform prior and the pair of hypotheses were fixed before the data were looked at.',
  'Nothing here covers regime changes, drifting rates, or dependent outcomes such as overlapping trading results.',
];

const METHOD =
  'One anytime-valid confidence sequence per arm from a beta-binomial mixture with a uniform prior, each at half the ' +
  'error level; Ville\'s inequality keeps both valid under continuous monitoring (see arXiv:2210.01948). A winner ' +
  'is named only when the two intervals no longer overlap.';

const WHAT_WOULD_DECIDE =
  'Either a larger true gap between the arms or more trials: the intervals tighten roughly with the square root ' +
  'of each arm\'s trial count, and the comparison can be re-read after every new trial without penalty.';

interface Arm {
  label: string;
  successes: number;
  total: number;
  interval: [number, number];
  rate: number | null;
}

function checkCounts(request: AbTestRequest): void {
  for (const side of ['a', 'b'] as const) {
    const successes = request[`${side}_successes`];
    const total = request[`${side}_total`];
    if (successes > total) {
      throw new AppError(
        ToolErrors.successes_exceed_total,
        `${side}_successes is ${successes} but ${side}_total is only ${total}; an arm cannot succeed more often than it was tried`,
        { path: `/${side}_successes` },
      );
    }
  }
}

function checkLabels(a: string, b: string): void {
  const reserved = RESERVED_RESULT_KEYS.includes(a) ? 'a_label' : RESERVED_RESULT_KEYS.includes(b) ? 'b_label' : null;
  if (reserved !== null || a === b) {
    throw new AppError(
      ToolErrors.invalid_arm_labels,
      reserved !== null
        ? `${reserved} names a field of the result (${RESERVED_RESULT_KEYS.join(', ')}); choose another name`
        : 'a_label and b_label must differ, since each names its own member of the result',
      { path: `/${reserved ?? 'b_label'}` },
    );
  }
}

function armBody(arm: Arm): PyObject {
  return new PyRecord()
    .int('successes', arm.successes)
    .int('n', arm.total)
    .float('rate', arm.rate === null ? null : pyround(arm.rate, 5))
    .floats('interval', arm.interval)
    .build();
}

function reading(a: Arm, b: Arm, winner: Arm | null, loser: Arm | null): string {
  if (a.total === 0 || b.total === 0) {
    const empty = a.total === 0 ? a.label : b.label;
    return `No verdict: arm ${JSON.stringify(empty)} has no trials yet, so there is nothing to compare.`;
  }
  if (winner !== null && loser !== null) {
    return (
      `${JSON.stringify(winner.label)} leads: its whole confidence interval now sits above that of ` +
      `${JSON.stringify(loser.label)}, and that conclusion holds however often the counts were checked.`
    );
  }
  return 'No winner yet: the two confidence intervals still overlap. Keep collecting; it is safe to look again at any time.';
}

export function abTest(request: AbTestRequest): PyObject {
  checkCounts(request);
  const aLabel = request.a_label ?? TOOL_DEFAULTS.ab_test.a_label;
  const bLabel = request.b_label ?? TOOL_DEFAULTS.ab_test.b_label;
  checkLabels(aLabel, bLabel);
  const alpha = request.alpha ?? TOOL_DEFAULTS.ab_test.alpha;
  const perArm = alpha / 2;
  if (perArm === 0) {
    throw new AppError(ToolErrors.alpha_too_small, 'alpha is so small that half of it is zero in double precision; use a larger alpha', {
      path: '/alpha',
    });
  }

  const arm = (label: string, successes: number, total: number, side: 'a' | 'b'): Arm => ({
    label,
    successes,
    total,
    interval: confidenceSequence(successes, total, perArm, `/${side}_successes`),
    rate: total === 0 ? null : successes / total,
  });
  // `+ 0` turns an integer token -0 into the int 0 it is in the reference.
  const a = arm(aLabel, request.a_successes + 0, request.a_total + 0, 'a');
  const b = arm(bLabel, request.b_successes + 0, request.b_total + 0, 'b');

  let winner: Arm | null = null;
  let loser: Arm | null = null;
  if (a.total > 0 && b.total > 0) {
    if (a.interval[0] > b.interval[1]) [winner, loser] = [a, b];
    else if (b.interval[0] > a.interval[1]) [winner, loser] = [b, a];
  }
  const decided = winner !== null;

  const out = new PyRecord()
    .set('decided', decided)
    .set('winner', winner === null ? null : winner.label)
    .set('reading', reading(a, b, winner, loser))
    .float('alpha', alpha)
    .set(a.label, armBody(a))
    .set(b.label, armBody(b))
    .set('safe_to_peek', true)
    .set('validity', 'conditional_on_bernoulli_model')
    .set(
      'guarantee',
      `If the Bernoulli assumptions hold, the probability that either arm's sequence ever excludes that arm's true ` +
        `rate, at any of the times it is looked at, is at most ${formatGeneral(alpha)}.`,
    )
    .set('assumptions', [...ASSUMPTIONS])
    .set('method', METHOD);
  if (!decided && a.rate !== null && b.rate !== null) {
    out.float('observed_difference_pp', pyround(100.0 * (b.rate - a.rate), 2));
    out.set('what_would_decide_it', WHAT_WOULD_DECIDE);
  }
  return out.build();
}
