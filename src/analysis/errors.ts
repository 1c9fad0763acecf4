// Error codes of the analysis group (market, narrative, spectral, Dyson). Every content
// problem is a 422: the body parsed, but the request cannot be assessed as sent.
import { defineErrors } from '../core/errors.js';

export const AnalysisErrors = defineErrors('analysis', {
  invalid_input: {
    status: 422,
    meaning: 'The request does not match the operation schema (type, bound, required or unknown field).',
  },
  duplicate_series_id: {
    status: 422,
    meaning: 'Two series in one request share the same id.',
  },
  non_increasing_timestamps: {
    status: 422,
    meaning: 'The timestamps of a series are not strictly increasing.',
  },
  non_positive_price: {
    status: 422,
    meaning: 'A price or level series contains a value that is zero or negative.',
  },
  negative_count: {
    status: 422,
    meaning: 'A count series contains a negative value.',
  },
  derived_statistic_overflow: {
    status: 422,
    meaning: 'A statistic derived from the inputs overflowed the double range.',
  },
  duplicate_event_id: {
    status: 422,
    meaning: 'Two events in one request share the same id.',
  },
  availability_precedes_publication: {
    status: 422,
    meaning: 'An event claims to have been available before it was published.',
  },
  lone_surrogate: {
    status: 422,
    meaning: 'A string contains an unpaired UTF-16 surrogate and cannot be digested.',
  },
  not_positive_semidefinite: {
    status: 422,
    meaning: 'A matrix that must be positive semidefinite has a clearly negative eigenvalue.',
  },
  eigensolver_failed: {
    status: 422,
    meaning: 'The eigenvalue solver did not converge or was given an unsuitable matrix.',
  },
});
