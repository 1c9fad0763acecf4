// Clock parsing for the source gates. Parsing is the dominant cost of gating a large
// request, and panels repeat the same clock texts in every member, so parsed clocks are
// memoised by position in the previous series. Clocks are kept as exact double microseconds; the
// BigInt instant is only built where a caller asks for it, or where a clock lies beyond
// ±2^53 µs and only the BigInt is exact.
import { AppError } from '../core/errors.js';
import { type Instant, parseUtcMicros, parseUtcTimestamp } from '../core/time.js';
import { AnalysisErrors } from './errors.js';
import { FloatArena } from './numeric/float-arena.js';

type FieldReader = (observation: object) => string | undefined;

// A keyed read `o[field]` whose name changes between calls goes megamorphic; one
// closure per clock field keeps each read a plain monomorphic property load.
const FIELD_READERS: Record<string, FieldReader> = {
  observed_at: (o) => (o as { observed_at?: string }).observed_at,
  available_at: (o) => (o as { available_at?: string }).available_at,
};

function fieldReader(field: string): FieldReader {
  return Object.hasOwn(FIELD_READERS, field)
    ? FIELD_READERS[field]
    : (o) => (o as Record<string, unknown>)[field] as string | undefined;
}

/** One clock member of every observation of a series. */
export class ClockColumn {
  private all: (Instant | undefined)[] | null = null;

  constructor(
    private readonly observations: readonly object[],
    private readonly read: FieldReader,
    private readonly parser: InstantParser,
    /** Microseconds since the epoch; NaN where the member is absent or beyond ±2^53 µs. */
    readonly keys: Float64Array,
    /** Every present clock lies within ±2^53 µs, so its key is exact. */
    readonly exact: boolean,
  ) {}

  /** The instant of observation i (undefined where the member is absent). */
  instant(i: number): Instant | undefined {
    if (this.all !== null) return this.all[i];
    const key = this.keys[i];
    if (key === key) return BigInt(key);
    const text = this.read(this.observations[i]);
    return text === undefined ? undefined : this.parser.parse(text);
  }

  /** Every instant, input order (undefined where the member is absent); built once. */
  instants(): (Instant | undefined)[] {
    if (this.all === null) {
      const all = new Array<Instant | undefined>(this.keys.length);
      for (let i = 0; i < all.length; i++) all[i] = this.instant(i);
      this.all = all;
    }
    return this.all;
  }
}

/** Observations compared with the previous series' before deciding whether to go on. */
const PROBE = 16;

interface ClockMemo {
  observations: readonly object[];
  keys: Float64Array;
  exact: boolean;
}

/**
 * Memoising clock parser. `readClocks` and `readObservationClocks` compare each text with
 * the one at the same position of the last two series read (cheap, and a hit for aligned
 * panels, including ones that alternate two spellings) and scan it otherwise. `parse`
 * (single clocks such as `as_of`, and BigInt instants beyond ±2^53 µs) keeps a map by text.
 */
export class InstantParser {
  private readonly cache = new Map<string, Instant>();
  private readonly previous = new Map<string, ClockMemo[]>();

  private readonly arena = new FloatArena();

  /** The instant of one clock text; `path` names it in the error for an invalid text. */
  parse(text: string, path?: string): Instant {
    let instant = this.cache.get(text);
    if (instant === undefined) {
      const parsed = parseUtcTimestamp(text);
      if (parsed === null) throw invalidClock(path);
      instant = parsed;
      this.cache.set(text, instant);
    }
    return instant;
  }

  // Not memoised by text: scanning a clock costs about what a map lookup of it does.
  private key(text: string, path: string | undefined): number {
    const key = parseUtcMicros(text);
    if (key === null) throw invalidClock(path);
    return key;
  }

  /**
   * Reads `field` of every observation. `pathPrefix` names the observation list for error
   * paths; the first invalid clock in input order is the one reported.
   */
  readClocks(observations: readonly object[], field: string, pathPrefix?: string): ClockColumn {
    const n = observations.length;
    const keys = new Float64Array(n);
    let exact = true;
    const recent = this.previous.get(field);
    const read = fieldReader(field);
    const first = recent === undefined ? NO_MEMO : recent[0];
    const second = recent === undefined || recent.length < 2 ? NO_MEMO : recent[1];
    const firstObs = first.observations;
    const secondObs = second.observations;
    const firstKeys = first.keys;
    const secondKeys = second.keys;
    const firstLength = firstObs.length;
    const secondLength = secondObs.length;
    // A series that shares no clock with the last two among its first observations is
    // taken to share none at all: comparing unequal texts costs about what scanning them
    // does, so an unaligned panel would pay twice.
    let compare = first !== NO_MEMO;
    let hits = 0;
    for (let i = 0; i < n; i++) {
      if (i === PROBE && hits === 0) compare = false;
      const text = read(observations[i]);
      let key: number;
      if (text === undefined) key = NaN;
      else if (compare && i < firstLength && read(firstObs[i]) === text) {
        key = firstKeys[i];
        hits++;
      } else if (compare && i < secondLength && read(secondObs[i]) === text) {
        key = secondKeys[i];
        hits++;
      } else key = this.key(text, pathPrefix === undefined ? undefined : `${pathPrefix}/${i}/${field}`);
      keys[i] = key;
      if (key !== key && text !== undefined) exact = false;
    }
    const memo: ClockMemo = { observations, keys, exact };
    this.previous.set(field, first === NO_MEMO ? [memo] : [memo, first]);
    return new ClockColumn(observations, read, this, keys, exact);
  }

  /**
   * `readClocks` of `observed_at` and of `available_at` in one walk over the observations
   * (a walk over a large panel costs more in memory traffic than in parsing). An invalid
   * `observed_at` throws here as `readClocks` would; an invalid `available_at` is only
   * recorded, because the gates that read it run after every series' domain checks, and
   * it is `availability()` that throws it.
   */
  readObservationClocks(observations: readonly GateClocks[], pathPrefix?: string): ObservationClocks {
    const n = observations.length;
    const observedRecent = this.previous.get('observed_at');
    const availableRecent = this.previous.get('available_at');
    const o1 = observedRecent === undefined ? NO_MEMO : observedRecent[0];
    const o2 = observedRecent === undefined || observedRecent.length < 2 ? NO_MEMO : observedRecent[1];
    const a1 = availableRecent === undefined ? NO_MEMO : availableRecent[0];
    const a2 = availableRecent === undefined || availableRecent.length < 2 ? NO_MEMO : availableRecent[1];
    const previous = o1.observations as readonly GateClocks[];
    if (n > 0 && a1.observations === previous && previous.length === n && sameClocks(observations, previous)) {
      // The clocks of an aligned panel member are the very strings of the previous
      // member's (the JSON reader hands out one string per repeated text), so its keys
      // are the previous keys: shared, not copied (nothing writes to a key column).
      this.previous.set('observed_at', [{ observations, keys: o1.keys, exact: o1.exact }, o1]);
      this.previous.set('available_at', [{ observations, keys: a1.keys, exact: a1.exact }, a1]);
      return new ObservationClocks(
        new ClockColumn(observations, FIELD_READERS.observed_at, this, o1.keys, o1.exact),
        new ClockColumn(observations, FIELD_READERS.available_at, this, a1.keys, a1.exact),
        -1,
      );
    }
    const observedKeys = this.arena.take(n);
    const availableKeys = this.arena.take(n);
    let observedExact = true;
    let availableExact = true;
    let invalidAt = -1;
    const o1Obs = o1.observations as readonly GateClocks[];
    const o2Obs = o2.observations as readonly GateClocks[];
    const a1Obs = a1.observations as readonly GateClocks[];
    const a2Obs = a2.observations as readonly GateClocks[];
    const o1Keys = o1.keys;
    const o2Keys = o2.keys;
    const a1Keys = a1.keys;
    const a2Keys = a2.keys;
    const o1Length = o1Obs.length;
    const o2Length = o2Obs.length;
    const a1Length = a1Obs.length;
    const a2Length = a2Obs.length;
    // The probe of `readClocks`, per member.
    let compareObserved = o1 !== NO_MEMO;
    let compareAvailable = a1 !== NO_MEMO;
    let observedHits = 0;
    let availableHits = 0;
    for (let i = 0; i < n; i++) {
      if (i === PROBE) {
        if (observedHits === 0) compareObserved = false;
        if (availableHits === 0) compareAvailable = false;
      }
      const observation = observations[i];
      const observed = observation.observed_at;
      let key: number;
      if (observed === undefined) key = NaN;
      else if (compareObserved && i < o1Length && o1Obs[i].observed_at === observed) {
        key = o1Keys[i];
        observedHits++;
      } else if (compareObserved && i < o2Length && o2Obs[i].observed_at === observed) {
        key = o2Keys[i];
        observedHits++;
      } else key = this.key(observed, pathPrefix === undefined ? undefined : `${pathPrefix}/${i}/observed_at`);
      observedKeys[i] = key;
      if (key !== key && observed !== undefined) observedExact = false;

      const available = observation.available_at;
      if (available === undefined) key = NaN;
      else if (compareAvailable && i < a1Length && a1Obs[i].available_at === available) {
        key = a1Keys[i];
        availableHits++;
      } else if (compareAvailable && i < a2Length && a2Obs[i].available_at === available) {
        key = a2Keys[i];
        availableHits++;
      } else {
        const parsed = parseUtcMicros(available);
        if (parsed === null) {
          if (invalidAt < 0) invalidAt = i;
          key = NaN;
        } else key = parsed;
      }
      availableKeys[i] = key;
      if (key !== key && available !== undefined) availableExact = false;
    }
    const observedMemo: ClockMemo = { observations, keys: observedKeys, exact: observedExact };
    this.previous.set('observed_at', o1 === NO_MEMO ? [observedMemo] : [observedMemo, o1]);
    // A column holding an invalid clock is never remembered: a later series repeating the
    // text must fail on it too.
    if (invalidAt < 0) {
      const availableMemo: ClockMemo = { observations, keys: availableKeys, exact: availableExact };
      this.previous.set('available_at', a1 === NO_MEMO ? [availableMemo] : [availableMemo, a1]);
    }
    return new ObservationClocks(
      new ClockColumn(observations, FIELD_READERS.observed_at, this, observedKeys, observedExact),
      new ClockColumn(observations, FIELD_READERS.available_at, this, availableKeys, availableExact),
      invalidAt,
    );
  }
}

/** The clock members of an observation. */
export interface GateClocks {
  observed_at?: string;
  available_at?: string;
}

/** Whether both clock members of every observation are the same as the other list's. */
function sameClocks(observations: readonly GateClocks[], other: readonly GateClocks[]): boolean {
  for (let i = 0; i < observations.length; i++) {
    const a = observations[i];
    const b = other[i];
    if (a.observed_at !== b.observed_at || a.available_at !== b.available_at) return false;
  }
  return true;
}

/** Both clock columns of a series, as read by `readObservationClocks`. */
export class ObservationClocks {
  constructor(
    readonly observed: ClockColumn,
    private readonly available: ClockColumn,
    /** Index of the first invalid `available_at`, or -1. */
    readonly invalidAvailableAt: number,
  ) {}

  /** The `available_at` column; throws what `readClocks(observations, 'available_at')` would. */
  availability(): ClockColumn {
    if (this.invalidAvailableAt >= 0) throw invalidClock(undefined);
    return this.available;
  }
}

const NO_MEMO: ClockMemo = { observations: [], keys: new Float64Array(0), exact: true };

function invalidClock(path: string | undefined): AppError {
  return new AppError(AnalysisErrors.invalid_input, `${path ?? 'timestamp'}: not a supported UTC timestamp`, { path });
}
