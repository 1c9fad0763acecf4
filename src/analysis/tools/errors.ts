// Error codes of the six statistical tools and of the tool dispatcher. Results that would
// not be finite reuse the group's `derived_statistic_overflow`, whatever the arithmetic
// (overflow, an underflowed divisor): the remedy, rescaling the inputs, is the same.
import { defineErrors } from '../../core/errors.js';

export const ToolErrors = defineErrors('analysis', {
  unknown_tool: {
    status: 404,
    meaning: 'No analysis tool has this name.',
  },
  successes_exceed_total: {
    status: 422,
    meaning: 'An A/B arm reports more successes than trials.',
  },
  invalid_arm_labels: {
    status: 422,
    meaning: 'The two arm labels are equal or would replace a field of the result.',
  },
  alpha_too_small: {
    status: 422,
    meaning: 'The error level is too small to be split between the two arms.',
  },
  length_mismatch: {
    status: 422,
    meaning: 'Two series that must be paired element by element have different lengths.',
  },
  empty_metric_name: {
    status: 422,
    meaning: 'A watched metric has an empty name.',
  },
});
