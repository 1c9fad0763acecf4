// Error codes of the data group (C) and its one validation body.
//
// Every invalid query parameter, whatever the check that caught it (type, range, calendar,
// cross-field or a reference to a snapshot the store does not hold), produces the same 422
// body: `{"detail": [{"type", "loc": ["query", name], "msg", "input"}], "code", "path"}`.
// The upstream has two shapes (a list from the framework, a bare string from its own
// checks); clients here parse one. `code` and `path` name the first problem.

import { defineErrors } from '../core/errors.js';

export const DataErrors = defineErrors('data', {
  dataset_required: { status: 422, meaning: 'The query needs a dataset parameter.' },
  unknown_dataset: { status: 422, meaning: 'The dataset parameter names no dataset this service serves.' },
  entity_too_long: { status: 422, meaning: 'The entity filter is longer than 100 characters.' },
  invalid_date: { status: 422, meaning: 'A date parameter is not a real calendar date written YYYY-MM-DD.' },
  date_range_reversed: { status: 422, meaning: 'start_date is after end_date.' },
  invalid_limit: { status: 422, meaning: 'limit is not a whole number within the documented range.' },
  invalid_offset: { status: 422, meaning: 'offset is not a whole number between 0 and 100000.' },
  invalid_snapshot_id: { status: 422, meaning: 'The snapshot parameter is not a snapshot id (32 lowercase hexadecimal characters).' },
  snapshot_not_stored: { status: 422, meaning: 'No stored snapshot of this dataset has that id (never made, or removed by retention).' },
  invalid_instant: { status: 422, meaning: 'as_retrieved_at is not a UTC instant (YYYY-MM-DDTHH:MM:SS[.ffffff] with Z or +00:00).' },
  no_snapshot_at_or_before: { status: 422, meaning: 'No stored snapshot of this dataset was retrieved at or before as_retrieved_at.' },
  invalid_format: { status: 422, meaning: 'format is neither json nor csv.' },
  conflicting_parameters: { status: 422, meaning: 'snapshot and as_retrieved_at each choose a snapshot; send at most one of them.' },
  snapshot_unreadable: { status: 503, meaning: 'A stored snapshot could not be read back intact (a document it needs is missing or damaged).' },
});

// The validation list itself is shared with group B (changes without `since`).
export { pointerOf, problem, QueryValidationError, type ValidationItem, type ValidationProblem } from '../core/query-problems.js';
