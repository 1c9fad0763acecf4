// Validation of the query parameters, before anything is fetched or read. Every problem
// found is reported at once, in parameter order, in the one 422 body (errors.ts).

import { codePointLength } from '../core/strings.js';
import { parseIsoDate, parseUtcTimestamp, type Instant } from '../core/time.js';
import {
  DEFAULT_LIMIT, MAXIMUM_ENTITY_LENGTH, MAXIMUM_LIMIT, MAXIMUM_OFFSET, SNAPSHOTS_DEFAULT_LIMIT, SNAPSHOTS_MAXIMUM_LIMIT,
} from './constants.js';
import { DATASET_IDS, isDatasetId, type DatasetId } from './datasets.js';
import { DataErrors, problem, QueryValidationError, type ValidationProblem } from './errors.js';

/** A query string as Fastify hands it over: each value a string, or a list when repeated. */
export type RawQuery = Record<string, unknown>;

export interface QueryParams {
  dataset: DatasetId;
  entity: string;
  startDate: string;
  endDate: string;
  limit: number;
  offset: number;
  /** Answer from exactly this stored snapshot. */
  snapshot: string | null;
  /** Answer from the newest snapshot retrieved at or before this instant. */
  asRetrievedAt: Instant | null;
  /** Body format of /api/v1/query (absent: json). */
  format?: QueryFormat;
}

export const QUERY_FORMATS = ['json', 'csv'] as const;
export type QueryFormat = (typeof QUERY_FORMATS)[number];

export interface SnapshotListParams {
  dataset: DatasetId;
  limit: number;
  offset: number;
}

export const SNAPSHOT_ID = /^[0-9a-f]{32}$/;
const DATE = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;
/**
 * A whole number as the upstream's framework (pydantic 2) reads one from query text: white
 * space around it (Unicode's, as pydantic trims it), an optional sign, digits with single
 * underscores between them, and an optional fraction of zeros (`2.0`; not `2.`, `2.5`, `2e0`).
 * Leading zeros go with any underscores among them: `0__5` is 5 (`1__0` is refused).
 */
const SPACE = '[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]*';
const INTEGER = new RegExp(`^${SPACE}([+-]?)((?:0[0_]*)?[0-9]+(?:_[0-9]+)*)(?:\\.0+)?${SPACE}$`);

/** The value of a whole number written as `INTEGER` reads it; undefined for any other text. */
export function wholeNumberOf(text: string): number | undefined {
  const m = INTEGER.exec(text);
  if (!m) return undefined;
  const magnitude = Number(m[2].replaceAll('_', ''));
  return m[1] === '-' && magnitude !== 0 ? -magnitude : magnitude;
}

// A repeated parameter counts with its last value, as the upstream framework reads it.
export function single(raw: RawQuery, name: string): string | undefined {
  if (!Object.hasOwn(raw, name)) return undefined;
  const value = raw[name];
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) return value.length === 0 ? undefined : asText(value[value.length - 1]);
  return asText(value);
}

// Query strings only ever hold text; anything else (from a direct caller) reads as its JSON.
function asText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value) ?? '';
}

function readDataset(raw: RawQuery, problems: ValidationProblem[]): DatasetId | null {
  const value = single(raw, 'dataset');
  if (value === undefined) {
    problems.push(problem(DataErrors.dataset_required, 'dataset', 'missing', `required; one of ${DATASET_IDS.join(', ')}`, null));
    return null;
  }
  if (!isDatasetId(value)) {
    problems.push(problem(DataErrors.unknown_dataset, 'dataset', 'enum', `unknown dataset; choose one of ${DATASET_IDS.join(', ')}`, value));
    return null;
  }
  return value;
}

export function readInteger(
  raw: RawQuery, name: string, fallback: number, min: number, max: number, def: typeof DataErrors.invalid_limit, problems: ValidationProblem[],
): number {
  const value = single(raw, name);
  if (value === undefined) return fallback;
  const n = wholeNumberOf(value);
  if (n === undefined) {
    problems.push(problem(def, name, 'int_parsing', `must be a whole number between ${min} and ${max}`, value));
    return fallback;
  }
  if (n < min) {
    problems.push(problem(def, name, 'greater_than_equal', `must be at least ${min}`, value));
    return fallback;
  }
  if (n > max) {
    problems.push(problem(def, name, 'less_than_equal', `must be at most ${max}`, value));
    return fallback;
  }
  return n;
}

function readDate(raw: RawQuery, name: string, problems: ValidationProblem[]): string | null {
  const value = single(raw, name);
  if (value === undefined || value === '') return '';
  if (!DATE.test(value)) {
    problems.push(problem(DataErrors.invalid_date, name, 'date_format', 'must be a date written YYYY-MM-DD', value));
    return null;
  }
  if (parseIsoDate(value) === null) {
    problems.push(problem(DataErrors.invalid_date, name, 'date_invalid', 'is not a day of the calendar', value));
    return null;
  }
  return value;
}

/** Default and largest `limit` of a table query (the agent query allows fewer rows). */
export interface LimitBounds {
  readonly defaultLimit: number;
  readonly maximumLimit: number;
}

export const TABLE_LIMITS: LimitBounds = { defaultLimit: DEFAULT_LIMIT, maximumLimit: MAXIMUM_LIMIT };

export function validateQuery(raw: RawQuery, bounds: LimitBounds = TABLE_LIMITS): QueryParams {
  const problems: ValidationProblem[] = [];
  const dataset = readDataset(raw, problems);

  const entity = single(raw, 'entity') ?? '';
  if (codePointLength(entity) > MAXIMUM_ENTITY_LENGTH) {
    problems.push(problem(DataErrors.entity_too_long, 'entity', 'string_too_long', `must be at most ${MAXIMUM_ENTITY_LENGTH} characters`, entity));
  }
  const startDate = readDate(raw, 'start_date', problems);
  const endDate = readDate(raw, 'end_date', problems);
  const limit = readInteger(raw, 'limit', bounds.defaultLimit, 1, bounds.maximumLimit, DataErrors.invalid_limit, problems);
  const offset = readInteger(raw, 'offset', 0, 0, MAXIMUM_OFFSET, DataErrors.invalid_offset, problems);

  const snapshotText = single(raw, 'snapshot');
  let snapshot: string | null = null;
  if (snapshotText !== undefined && snapshotText !== '') {
    if (SNAPSHOT_ID.test(snapshotText)) snapshot = snapshotText;
    else problems.push(problem(DataErrors.invalid_snapshot_id, 'snapshot', 'string_pattern_mismatch', 'must be a snapshot id: 32 lowercase hexadecimal characters', snapshotText));
  }
  const instantText = single(raw, 'as_retrieved_at');
  let asRetrievedAt: Instant | null = null;
  if (instantText !== undefined && instantText !== '') {
    asRetrievedAt = parseUtcTimestamp(instantText);
    if (asRetrievedAt === null) {
      problems.push(problem(DataErrors.invalid_instant, 'as_retrieved_at', 'datetime_format', 'must be a UTC instant such as 2026-11-19T15:30:00Z', instantText));
    }
  }

  const formatText = single(raw, 'format');
  let format: QueryFormat = 'json';
  if (formatText !== undefined && formatText !== '') {
    if ((QUERY_FORMATS as readonly string[]).includes(formatText)) format = formatText as QueryFormat;
    else problems.push(problem(DataErrors.invalid_format, 'format', 'enum', `must be one of ${QUERY_FORMATS.join(', ')}`, formatText));
  }

  if (startDate && endDate && startDate > endDate) {
    problems.push(problem(DataErrors.date_range_reversed, 'start_date', 'date_range', 'must not be after end_date', startDate));
  }
  if (snapshotText && instantText) {
    problems.push(problem(DataErrors.conflicting_parameters, 'as_retrieved_at', 'conflict', 'cannot be combined with snapshot', instantText));
  }
  if (problems.length > 0) throw new QueryValidationError(problems);
  return { dataset: dataset!, entity, startDate: startDate!, endDate: endDate!, limit, offset, snapshot, asRetrievedAt, format };
}

export function validateSnapshotList(raw: RawQuery): SnapshotListParams {
  const problems: ValidationProblem[] = [];
  const dataset = readDataset(raw, problems);
  const limit = readInteger(raw, 'limit', SNAPSHOTS_DEFAULT_LIMIT, 1, SNAPSHOTS_MAXIMUM_LIMIT, DataErrors.invalid_limit, problems);
  const offset = readInteger(raw, 'offset', 0, 0, MAXIMUM_OFFSET, DataErrors.invalid_offset, problems);
  if (problems.length > 0) throw new QueryValidationError(problems);
  return { dataset: dataset!, limit, offset };
}
