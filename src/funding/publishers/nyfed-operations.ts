// NY Fed Markets API operation results: overnight reverse repo (ON RRP) and the standing
// repo facility (SRF).
//
// Both documents list operations newest first; the metric for a day is built from that
// day's *regular* overnight operations of the right type: those closing at a scheduled
// time (ON RRP 13:15; SRF 08:30 and 13:45, the morning and afternoon full-allotment
// operations), and not marked as a small value exercise. The Desk also runs small value
// exercises and operations on changed schedules (closing 10:00 or 10:30, numbered 99,
// noted "Small Value Exercise" or not noted at all); those are not the facility's daily
// take-up, so they are set aside — kept with the day's value so the review's lineage can
// list them — instead of failing the day. The rules for the regular operations (exactly
// one per scheduled close time, all present, settled the same day, with results, whole
// non-negative dollar amounts) are judged per day, so a day still in progress — the
// morning SRF operation has results hours before the afternoon one — is recorded as
// rejected for that day without spoiling the complete days before it. Amounts are US
// dollars; the metric is billions, so the (summed) amount is divided by 10^9 exactly.

import {
  type Decimal,
  addDecimals,
  decimalFromJsonValue,
  divideByPowerOfTen,
  isIntegralDecimal,
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
import { amountProblem, OPERATION_AWARD_RULE } from './amounts.js';
import { nonBusinessDay } from './calendar.js';
import type { DatedObservation, IsoDate, MetricId, PublisherBody, PublisherDocument, SetAsideOperation } from './types.js';

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
  /** Close times (HH:MM, New York) of the day's regular operations, ascending. */
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
/** How the Desk labels a small value exercise in an operation's note. */
const EXERCISE_NOTE = /small[\s-]+value[\s-]+exercise/i;

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
    throw new DayRejected('document_not_results', `${rules.label} operation ${op.id} on ${date} has auctionStatus ${describeValue(record.auctionStatus)}, not "Results"`,
      operationLocation(op, 'auctionStatus'));
  }
  if (record.settlementDate !== date) {
    throw new DayRejected('document_settlement_date', `${rules.label} operation ${op.id} on ${date} settles on ${describeValue(record.settlementDate)}, not the same day`,
      operationLocation(op, 'settlementDate'));
  }
  const raw = record.totalAmtAccepted;
  const amount = decimalFromJsonValue(raw);
  const location = operationLocation(op, 'totalAmtAccepted');
  if (amount === null) {
    throw new DayRejected('document_not_a_number', `totalAmtAccepted of operation ${op.id} on ${date} is ${describeValue(raw)}, not a finite number`, location);
  }
  if (!isIntegralDecimal(amount) || !Number.isSafeInteger(raw)) {
    throw new DayRejected('document_not_whole_dollars', `totalAmtAccepted of operation ${op.id} on ${date} is ${describeValue(raw)}, not an exact whole number of dollars`, location);
  }
  // Negative, or outside the bounds of an award (amounts.ts).
  const problem = amountProblem(amount, OPERATION_AWARD_RULE);
  if (problem !== undefined) throw new DayRejected(problem.reason, `totalAmtAccepted of operation ${op.id} on ${date} is ${describeValue(raw)}, ${problem.why}`, location);
  return amount;
}

function textOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** Splits a day's operations into the regular ones and those set aside, with the reason. */
function classify(rules: OperationRules, ops: readonly Operation[]): { regular: Operation[]; setAside: SetAsideOperation[] } {
  const regular: Operation[] = [];
  const setAside: SetAsideOperation[] = [];
  for (const op of ops) {
    const note = textOrNull(op.record.note);
    const closeTime = textOrNull(op.record.closeTime);
    const reason = note !== null && EXERCISE_NOTE.test(note)
      ? 'small_value_exercise'
      : closeTime === null || !rules.closeTimes.includes(closeTime) ? 'unscheduled_close_time' : null;
    if (reason === null) regular.push(op);
    else setAside.push(Object.freeze({ operation_id: op.id, close_time: closeTime, note, reason }));
  }
  return { regular, setAside };
}

function dayTotal(rules: OperationRules, date: IsoDate, ops: readonly Operation[]): { total: Decimal; setAside: SetAsideOperation[] } {
  const { regular, setAside } = classify(rules, ops);
  const times = ops.map((op) => describeValue(op.record.closeTime)).join(', ');
  const scheduled = rules.closeTimes.join(' and ');
  if (regular.length === 0) {
    throw new DayRejected('document_no_regular_operation',
      `${rules.label} operations on ${date} close at ${times}; none is the regular operation closing at ${scheduled}`, operationLocation(ops[0], 'closeTime'));
  }
  for (const time of rules.closeTimes) {
    const atTime = regular.filter((op) => op.record.closeTime === time);
    if (atTime.length > 1) {
      throw new DayRejected('document_operation_set',
        `${atTime.length} regular ${rules.label} operations on ${date} close at ${time} (${atTime.map((op) => op.id).join(', ')}); exactly one is scheduled`,
        operationLocation(atTime[1], 'closeTime'));
    }
  }
  if (regular.length < rules.closeTimes.length) {
    const missing = rules.closeTimes.filter((t) => !regular.some((op) => op.record.closeTime === t));
    throw new DayRejected('document_incomplete',
      `${rules.label} results for ${date} are incomplete: the operation closing at ${missing.join(' and ')} is not listed (the day has ${times})`,
      operationLocation(regular[0]));
  }
  let total: Decimal = { units: 0n, scale: 0 };
  for (const op of regular) total = addDecimals(total, acceptedDollars(rules, op));
  return { total, setAside };
}

function parseOperations(rules: OperationRules, body: PublisherBody): PublisherDocument {
  const { document } = rules;
  const root = readJsonDocument(document, body);
  const repo = isPlainObject(root) ? root.repo : undefined;
  if (!isPlainObject(repo) || !Array.isArray(repo.operations)) {
    fail(document, 'document_unexpected_shape', 'expected an object {"repo": {"operations": [...]}}', '/repo/operations');
  }
  const list: unknown[] = repo.operations;

  const ids = new Set<string>();
  const byDate = new Map<IsoDate, Operation[]>();
  list.forEach((record, index) => {
    const at = (field?: string) => (field === undefined ? pointer('repo', 'operations', index) : pointer('repo', 'operations', index, field));
    if (!isPlainObject(record)) fail(document, 'document_unexpected_shape', `operation ${index} is not an object`, at());
    const id = record.operationId;
    if (typeof id !== 'string' || id.trim() === '') {
      fail(document, 'document_unexpected_shape', `operation ${index} has operationId ${describeValue(id)}, not a non-empty text`, at('operationId'));
    }
    if (ids.has(id)) fail(document, 'document_duplicate_id', `operationId ${JSON.stringify(id)} appears more than once`, at('operationId'));
    ids.add(id);
    for (const field of ['operationType', 'term'] as const) {
      if (typeof record[field] !== 'string') {
        fail(document, 'document_unexpected_shape', `operation ${id} has ${field} ${describeValue(record[field])}, not a text`, at(field));
      }
    }
    if (record.operationType !== rules.operationType || record.term !== 'Overnight') return;
    const date = checkedDate(record.operationDate);
    if (date === null) {
      fail(document, 'document_bad_date', `operation ${id} has operationDate ${describeValue(record.operationDate)}, not a real YYYY-MM-DD date`, at('operationDate'));
    }
    const day = byDate.get(date) ?? [];
    day.push({ index, id, date, record });
    byDate.set(date, day);
  });

  const entries: DatedObservation[] = [];
  for (const [date, ops] of byDate) {
    const closed = nonBusinessDay(date, 'nyfed');
    if (closed !== undefined) {
      entries.push(rejectedObservation(date, new PublisherDocumentError(document, 'document_not_business_day',
        `${rules.label} operations are dated ${date}, ${closed}, when the NY Fed holds none`, { location: operationLocation(ops[0]) })));
      continue;
    }
    try {
      const { total, setAside } = dayTotal(rules, date, ops);
      entries.push(acceptedObservation(date, divideByPowerOfTen(total, DOLLARS_PER_BILLION_EXPONENT), setAside));
    } catch (e) {
      if (!(e instanceof DayRejected)) throw e;
      entries.push(rejectedObservation(date, new PublisherDocumentError(document, e.reason, e.detail, { location: e.location })));
    }
  }
  return Object.freeze({ document, series: Object.freeze([buildSeries(document, rules.metric, entries)]) });
}

/** ON RRP results → liquidity.on_rrp: the one regular (13:15) overnight operation per day, dollars ÷ 10^9. */
export function parseOnRrpDocument(body: PublisherBody): PublisherDocument {
  return parseOperations(ON_RRP, body);
}

/** Repo results → liquidity.srf: the regular 08:30 plus 13:45 overnight operations per day, summed, ÷ 10^9. */
export function parseSrfDocument(body: PublisherBody): PublisherDocument {
  return parseOperations(SRF, body);
}
