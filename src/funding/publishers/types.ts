// Shapes shared by the publisher parsers and whoever builds packets from them.
//
// Every parser turns one publisher document into one `MetricSeries` per metric it
// carries. A series lists every date the document holds for that metric, newest first.
// A date whose value breaks a rule is kept as a *rejected* entry rather than failing the
// whole document: documents hold days the packet does not use (the NY Fed repo results
// show today's morning operation hours before the afternoon one), and a flaw on such a
// day must not stop a capture — but when the builder picks that date, the stored error
// is what it throws. Flaws that make the document itself untrustworthy (bad syntax,
// unexpected structure, unreadable or duplicate dates, duplicate ids, wrong units,
// pagination) are thrown by the parser straight away.

import type { PublisherDocumentError } from '../errors.js';

/** The seven publisher documents; these keys name the packet's publisher receipts. */
export const PUBLISHER_KEYS = ['sofr', 'effr', 'iorb', 'reserves', 'on_rrp', 'srf', 'tga'] as const;
export type PublisherKey = (typeof PUBLISHER_KEYS)[number];

/** The nine packet metrics in their fixed order (CSV rows, `observations` array). */
export const METRIC_IDS = [
  'policy.sofr',
  'policy.effr',
  'policy.iorb',
  'distribution.sofr.p99',
  'distribution.sofr.volume',
  'liquidity.reserves',
  'liquidity.tga',
  'liquidity.on_rrp',
  'liquidity.srf',
] as const;
export type MetricId = (typeof METRIC_IDS)[number];

/** A checked calendar date, `YYYY-MM-DD`. */
export type IsoDate = string;

/** The raw body exactly as downloaded (text formats also accept a string). */
export type PublisherBody = Uint8Array | string;

export interface AcceptedObservation {
  readonly date: IsoDate;
  readonly state: 'accepted';
  /** Exact value after the unit conversion, canonical decimal text (`2930.193`). */
  readonly exact: string;
  /** The IEEE double nearest to `exact` — what goes into JSON and CSV. */
  readonly value: number;
  /**
   * Items of that date the document lists but the value is not built from, by rule (a
   * small value exercise next to the regular operation). Absent when there are none;
   * the review's lineage records them for the date a packet uses.
   */
  readonly setAside?: readonly SetAsideOperation[];
}

/** An operation on a used date that was not part of the value, and why. */
export interface SetAsideOperation {
  readonly operation_id: string;
  readonly close_time: string | null;
  readonly note: string | null;
  readonly reason: 'unscheduled_close_time' | 'small_value_exercise';
}

/**
 * What a parser may need to know beyond the bytes: the UTC date on which the document
 * was current (its retrieval day; for a bundled sample day, the day it imitates). Only
 * documents that state a rate "in effect since" a date need it, to know up to when.
 */
export interface ParseContext {
  readonly asOf: IsoDate;
}

export interface RejectedObservation {
  readonly date: IsoDate;
  readonly state: 'rejected';
  /** Why this date cannot be used; the builder throws it if it selects the date. */
  readonly error: PublisherDocumentError;
}

export type DatedObservation = AcceptedObservation | RejectedObservation;

export interface MetricSeries {
  readonly metric: MetricId;
  readonly document: PublisherKey;
  /** One entry per date, newest first. */
  readonly observations: readonly DatedObservation[];
  /**
   * Newest date with an accepted value (null when there is none): the source of
   * `canonical_latest_asof`. A date that is present but rejected (for example a repo day
   * whose afternoon operation has not happened yet) is not a newer observation.
   */
  readonly newestDate: IsoDate | null;
}

export interface PublisherDocument {
  readonly document: PublisherKey;
  /** The metrics this document carries, in METRIC_IDS order. */
  readonly series: readonly MetricSeries[];
}
