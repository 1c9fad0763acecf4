// NY Fed Markets API operation results: overnight reverse repo (ON RRP) and the standing
// repo facility (SRF).
//
// Both documents list operations newest first; the metric for a day is built from that
// day's overnight operations of the right type. The rules for a day's set of operations
// (how many, at which close times, settled the same day, with results, whole non-negative
// dollar amounts) are judged per day, so a day still in progress — the morning SRF
// operation has results hours before the afternoon one — is recorded as rejected for that
// day without spoiling the complete days before it. Amounts are US dollars; the metric is
// billions, so the (summed) amount is divided by 10^9 exactly.

import {
  type Decimal,
  addDecimals,
  decimalFromJsonValue,
  divideByPowerOfTen,
  isIntegralDecimal,
  isNegativeDecimal,
} from '../decimal.js';
import { type PublisherDocumentFailure, PublisherDocumentError } from '../errors.js';
import {
  acceptedObservation,
  buildSeries,
  checkedDate,
  describeValue,
  fail,
  isPlainObject,
  pointer,
  readJsonDocument,
  rejectedObservation,
} from './body.js';
import type { DatedObservation, IsoDate, MetricId, PublisherBody, PublisherDocument } from './types.js';

interface Operation {
  readonly index: number;
  readonly id: string;
  readonly date: IsoDate;
  readonly record: Record<string, unknown>;
}

interface OperationRules {
  readonly document: 'on_rrp' | 'srf';
  readonly metric: MetricId;
  readonly operationType: 'Reverse Repo' | 'Repo';
  /** Close times (HH:MM, New York) of the day's operations, ascending. */
  readonly closeTimes: readonly string[];
  readonly label: string;
}

const ON_RRP: OperationRules = {
  document: 'on_rrp',
  metric: 'liquidity.on_rrp',
  operationType: 'Reverse Repo',
  closeTimes: ['13:15'],
  label: 'overnight reverse repo',
};

const SRF: OperationRules = {
  document: 'srf',
  metric: 'liquidity.srf',
  operationType: 'Repo',
  closeTimes: ['08:30', '13:45'],
  label: 'overnight standing repo',
};

const DOLLARS_PER_BILLION_EXPONENT = 9;

class DayRejected extends Error {
  constructor(readonly reason: PublisherDocumentFailure, readonly detail: string, readonly location?: string) {
    super(detail);
  }
}

function operationLocation(op: Operation, field?: string): string {
  return field === undefined ? pointer('repo', 'operations', op.index) : pointer('repo', 'operations', op.index, field);
}

function acceptedDollars(rules: OperationRules, op: Operation): Decimal {
  const { record, date } = op;
  if (record.auctionStatus !== 'Results') {
    throw new DayRejected('not_results', `${rules.label} operation ${op.id} on ${date} has auctionStatus ${describeValue(record.auctionStatus)}, not "Results"`,
      operationLocation(op, 'auctionStatus'));
  }
  if (record.settlementDate !== date) {
    throw new DayRejected('settlement_date', `${rules.label} operation ${op.id} on ${date} settles on ${describeValue(record.settlementDate)}, not the same day`,
      operationLocation(op, 'settlementDate'));
  }
  const raw = record.totalAmtAccepted;
  const amount = decimalFromJsonValue(raw);
  const location = operationLocation(op, 'totalAmtAccepted');
  if (amount === null) {
    throw new DayRejected('not_a_number', `totalAmtAccepted of operation ${op.id} on ${date} is ${describeValue(raw)}, not a finite number`, location);
  }
  if (!isIntegralDecimal(amount) || !Number.isSafeInteger(raw)) {
    throw new DayRejected('not_whole_dollars', `totalAmtAccepted of operation ${op.id} on ${date} is ${describeValue(raw)}, not an exact whole number of dollars`, location);
  }
  if (isNegativeDecimal(amount)) {
    throw new DayRejected('negative_amount', `totalAmtAccepted of operation ${op.id} on ${date} is negative (${describeValue(raw)})`, location);
  }
  return amount;
}

function dayTotal(rules: OperationRules, date: IsoDate, ops: readonly Operation[]): Decimal {
  const expected = rules.closeTimes.length;
  if (ops.length < expected && rules.closeTimes.length > 1) {
    throw new DayRejected('incomplete',
      `${rules.label} results for ${date} are incomplete: ${ops.length} of the ${expected} daily operations (${rules.closeTimes.join(' and ')}) are present`,
      operationLocation(ops[0]));
  }
  if (ops.length !== expected) {
    throw new DayRejected('operation_set', `expected ${expected} ${rules.label} operation(s) on ${date}, found ${ops.length}`, operationLocation(ops[0]));
  }
  const times = ops.map((op) => op.record.closeTime);
  const sorted = [...times].sort((a, b) => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0));
  if (sorted.some((t, i) => t !== rules.closeTimes[i])) {
    throw new DayRejected('operation_set',
      `${rules.label} operations on ${date} close at ${times.map(describeValue).join(', ')}; expected exactly ${rules.closeTimes.join(' and ')}`,
      operationLocation(ops[0], 'closeTime'));
  }
  let total: Decimal = { units: 0n, scale: 0 };
  for (const op of ops) total = addDecimals(total, acceptedDollars(rules, op));
  return total;
}

function parseOperations(rules: OperationRules, body: PublisherBody): PublisherDocument {
  const { document } = rules;
  const root = readJsonDocument(document, body);
  const repo = isPlainObject(root) ? root.repo : undefined;
  if (!isPlainObject(repo) || !Array.isArray(repo.operations)) {
    fail(document, 'unexpected_shape', 'expected an object {"repo": {"operations": [...]}}', '/repo/operations');
  }
  const list: unknown[] = repo.operations;

  const ids = new Set<string>();
  const byDate = new Map<IsoDate, Operation[]>();
  list.forEach((record, index) => {
    const at = (field?: string) => (field === undefined ? pointer('repo', 'operations', index) : pointer('repo', 'operations', index, field));
    if (!isPlainObject(record)) fail(document, 'unexpected_shape', `operation ${index} is not an object`, at());
    const id = record.operationId;
    if (typeof id !== 'string' || id.trim() === '') {
      fail(document, 'unexpected_shape', `operation ${index} has operationId ${describeValue(id)}, not a non-empty text`, at('operationId'));
    }
    if (ids.has(id)) fail(document, 'duplicate_id', `operationId ${JSON.stringify(id)} appears more than once`, at('operationId'));
    ids.add(id);
    for (const field of ['operationType', 'term'] as const) {
      if (typeof record[field] !== 'string') {
        fail(document, 'unexpected_shape', `operation ${id} has ${field} ${describeValue(record[field])}, not a text`, at(field));
      }
    }
    if (record.operationType !== rules.operationType || record.term !== 'Overnight') return;
    const date = checkedDate(record.operationDate);
    if (date === null) {
      fail(document, 'bad_date', `operation ${id} has operationDate ${describeValue(record.operationDate)}, not a real YYYY-MM-DD date`, at('operationDate'));
    }
    const day = byDate.get(date) ?? [];
    day.push({ index, id, date, record });
    byDate.set(date, day);
  });

  const entries: DatedObservation[] = [];
  for (const [date, ops] of byDate) {
    try {
      entries.push(acceptedObservation(date, divideByPowerOfTen(dayTotal(rules, date, ops), DOLLARS_PER_BILLION_EXPONENT)));
    } catch (e) {
      if (!(e instanceof DayRejected)) throw e;
      entries.push(rejectedObservation(date, new PublisherDocumentError(document, e.reason, e.detail, { location: e.location })));
    }
  }
  return Object.freeze({ document, series: Object.freeze([buildSeries(document, rules.metric, entries)]) });
}

/** ON RRP results → liquidity.on_rrp: the one 13:15 overnight operation per day, dollars ÷ 10^9. */
export function parseOnRrpDocument(body: PublisherBody): PublisherDocument {
  return parseOperations(ON_RRP, body);
}

/** Repo results → liquidity.srf: the 08:30 plus the 13:45 overnight operation per day, summed, ÷ 10^9. */
export function parseSrfDocument(body: PublisherBody): PublisherDocument {
  return parseOperations(SRF, body);
}
