// `request_sha256` of market_assessment and spectral_assessment: the digest form of
// `{series, as_of[, policy]}` exactly as received (spec §4.1).
//
// The generic `sha256OfDigestJson` spends most of a maximal request (131 072 observations)
// discovering, sorting and dispatching on keys. The series schema fixes every object's
// possible members, so this writer emits them in sorted code-point order directly and
// leaves only the values to `DigestJsonWriter` (same escaping, same number kinds).
//
// Observations, nearly all of the bytes, are written in place in one step each; their
// leading clock members are remembered per position (see ClockPrefixes).
//
// Every object is checked to hold exactly the known members it was written with (no
// other own keys, none undefined); anything else — possible only for input that skipped
// the schema — is handed to the generic encoder whole, so the bytes always equal
// `sha256OfDigestJson` of the same value. test/analysis/request-digest.test.ts proves it.
import { DigestJsonWriter, hasNumberKinds as importedHasNumberKinds, MAX_FAST_NUMBER_BYTES as IMPORTED_MAX_FAST_NUMBER_BYTES, putFastNumber as importedPutFastNumber, putPlainQuoted as importedPutPlainQuoted } from '../core/json.js';

// The service runs its sources through tsx, whose modules read every imported binding
// through a getter call; in the per-observation loop those calls took a sixth of the
// digest. Module-level copies are plain reads.
const hasNumberKinds = importedHasNumberKinds;
const putFastNumber = importedPutFastNumber;
const putPlainQuoted = importedPutPlainQuoted;
const MAX_FAST_NUMBER_BYTES = IMPORTED_MAX_FAST_NUMBER_BYTES;

const ascii = (text: string): Uint8Array => Buffer.from(text, 'latin1');

// Members in code-point order: `as_of` < `policy` < `series`.
const AS_OF = ascii('{"as_of":');
const POLICY = ascii(',"policy":');
const SERIES = ascii(',"series":');
const CLOSE_OBJECT = ascii('}');
const OPEN_ARRAY = ascii('[');
const CLOSE_ARRAY = ascii(']');
const COMMA = ascii(',');

// Series: group < id < kind < max_age_seconds < max_gap_seconds < observations < source < unit.
const GROUP_FIRST = ascii('{"group":');
const ID_AFTER_GROUP = ascii(',"id":');
const ID_FIRST = ascii('{"id":');
const KIND = ascii(',"kind":');
const MAX_AGE = ascii(',"max_age_seconds":');
const MAX_GAP = ascii(',"max_gap_seconds":');
const OBSERVATIONS = ascii(',"observations":');
const SOURCE = ascii(',"source":');
const UNIT = ascii(',"unit":');

// Source: id < rights < url.
const SOURCE_ID = ascii('{"id":');
const RIGHTS = ascii(',"rights":');
const URL = ascii(',"url":');

// Observation: available_at < observed_at < sample_size < value.
const AVAILABLE_FIRST = ascii('{"available_at":');
const OBSERVED_AFTER_AVAILABLE = ascii(',"observed_at":');
const OBSERVED_FIRST = ascii('{"observed_at":');
const SAMPLE_SIZE = ascii(',"sample_size":');
const VALUE = ascii(',"value":');

type Members = Record<string, unknown>;

function isPlainObject(v: unknown): v is Members {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Whether `o` has exactly `expected` own enumerable keys (the known ones we found). */
function hasOnly(o: Members, expected: number): boolean {
  return Object.keys(o).length === expected;
}

const present = (v: unknown): number => (v === undefined ? 0 : 1);

function writeObservation(w: DigestJsonWriter, o: unknown): void {
  if (!isPlainObject(o)) return w.value(o);
  const available = o.available_at;
  const observed = o.observed_at;
  const sampleSize = o.sample_size;
  const value = o.value;
  if (observed === undefined || value === undefined) return w.value(o);
  if (!hasOnly(o, 2 + present(available) + present(sampleSize))) return w.value(o);
  if (available !== undefined) {
    w.raw(AVAILABLE_FIRST);
    w.member(available, o, 'available_at');
    w.raw(OBSERVED_AFTER_AVAILABLE);
  } else {
    w.raw(OBSERVED_FIRST);
  }
  w.member(observed, o, 'observed_at');
  if (sampleSize !== undefined) {
    w.raw(SAMPLE_SIZE);
    w.member(sampleSize, o, 'sample_size');
  }
  w.raw(VALUE);
  w.member(value, o, 'value');
  w.raw(CLOSE_OBJECT);
}

// Panels usually share one clock grid: observation i of every series carries the same
// observed_at/available_at texts (the reader even hands out the same string objects), so
// the bytes up to the first number — `{"available_at":"…","observed_at":"…","sample_size":`
// or the shorter forms — are encoded once per position and copied after that. One typed
// copy costs about what a loop spends on eight characters.
class ClockPrefixes {
  private readonly observed: string[] = [];
  private readonly available: (string | undefined)[] = [];
  private readonly sampled: boolean[] = [];
  private readonly bytes: Uint8Array[] = [];
  private misses = 0;
  private hits = 0;
  // Cleared once the request has shown that its series do not share clocks: then
  // comparing and copying would only add to writing the texts.
  private useful = true;

  find(i: number, observed: string, available: string | undefined, sampled: boolean): Uint8Array | undefined {
    if (!this.useful) return undefined;
    if (this.observed[i] === observed && this.available[i] === available && this.sampled[i] === sampled) {
      this.hits++;
      // Equal texts may be distinct strings (the first series' are views into the body);
      // keeping the latest makes the next series' comparison an identity check.
      this.observed[i] = observed;
      this.available[i] = available;
      return this.bytes[i];
    }
    this.misses++;
    if (this.misses > 4096 && this.misses > 4 * this.hits) this.useful = false;
    return undefined;
  }

  /** Keeps a copy of `buf[start, end)`, in place of the one for position `i` if sizes match. */
  remember(i: number, observed: string, available: string | undefined, sampled: boolean, buf: Uint8Array, start: number, end: number): void {
    if (!this.useful) return;
    this.observed[i] = observed;
    this.available[i] = available;
    this.sampled[i] = sampled;
    const n = end - start;
    let copy = this.bytes[i];
    // A loop: a view of the sink's Buffer for `set` would cost more than these ~90 bytes.
    if (copy === undefined || copy.length !== n) this.bytes[i] = copy = new Uint8Array(n);
    for (let j = 0; j < n; j++) copy[j] = buf[start + j];
  }
}

const PREFIX_CONSTANT_BYTES = AVAILABLE_FIRST.length + OBSERVED_AFTER_AVAILABLE.length + SAMPLE_SIZE.length;

function putBytes(buf: Uint8Array, p: number, bytes: Uint8Array): number {
  buf.set(bytes, p);
  return p + bytes.length;
}

/** The clock members and the key of the first number; -1 if a clock needs escaping. */
function putClockPrefix(buf: Uint8Array, p: number, observed: string, available: string | undefined, sampled: boolean): number {
  if (available !== undefined) {
    p = putPlainQuoted(buf, putBytes(buf, p, AVAILABLE_FIRST), available);
    if (p < 0) return -1;
    p = putBytes(buf, p, OBSERVED_AFTER_AVAILABLE);
  } else {
    p = putBytes(buf, p, OBSERVED_FIRST);
  }
  p = putPlainQuoted(buf, p, observed);
  if (p < 0) return -1;
  return putBytes(buf, p, sampled ? SAMPLE_SIZE : VALUE);
}

/**
 * Writes observation `i` (after a comma unless first) in one step when it has only known
 * members, clocks that need no escaping and numbers the positional writers print; false,
 * with nothing written, otherwise.
 */
function writeObservationInPlace(w: DigestJsonWriter, o: Members, i: number, prefixes: ClockPrefixes): boolean {
  const available = o.available_at;
  const observed = o.observed_at;
  const sampleSize = o.sample_size;
  const value = o.value;
  if (typeof observed !== 'string' || value === undefined) return false;
  if (available !== undefined && typeof available !== 'string') return false;
  const sampled = sampleSize !== undefined;
  let members = 0;
  for (const _ in o) members++;
  if (members !== 2 + present(available) + present(sampleSize)) return false;
  // An integral float token (`1000.0`) or a big integer has a side-table entry.
  if (hasNumberKinds(o)) return false;

  const clockBytes = observed.length + (available === undefined ? 0 : available.length) + 4;
  const sink = w.sink;
  const buf = sink.room(PREFIX_CONSTANT_BYTES + clockBytes + 2 * MAX_FAST_NUMBER_BYTES + VALUE.length + 2);
  let start = sink.position;
  if (i > 0) buf[start++] = 0x2c;
  let p: number;
  const known = prefixes.find(i, observed, available, sampled);
  if (known !== undefined) {
    p = putBytes(buf, start, known);
  } else {
    p = putClockPrefix(buf, start, observed, available, sampled);
    if (p < 0) return false;
    prefixes.remember(i, observed, available, sampled, buf, start, p);
  }
  if (sampled) {
    p = putFastNumber(buf, p, sampleSize);
    if (p < 0) return false;
    p = putBytes(buf, p, VALUE);
  }
  p = putFastNumber(buf, p, value);
  if (p < 0) return false;
  buf[p++] = 0x7d;
  sink.advanceTo(p);
  return true;
}

function writeObservations(w: DigestJsonWriter, list: unknown, prefixes: ClockPrefixes): void {
  if (!Array.isArray(list)) return w.value(list);
  w.raw(OPEN_ARRAY);
  for (let i = 0; i < list.length; i++) {
    const o: unknown = list[i];
    if (isPlainObject(o) && writeObservationInPlace(w, o, i, prefixes)) continue;
    if (i > 0) w.raw(COMMA);
    writeObservation(w, o);
  }
  w.raw(CLOSE_ARRAY);
}

function writeSource(w: DigestJsonWriter, source: unknown): void {
  if (!isPlainObject(source)) return w.value(source);
  const { id, rights, url } = source;
  if (id === undefined || rights === undefined || !hasOnly(source, 2 + present(url))) return w.value(source);
  w.raw(SOURCE_ID);
  w.member(id, source, 'id');
  w.raw(RIGHTS);
  w.member(rights, source, 'rights');
  if (url !== undefined) {
    w.raw(URL);
    w.member(url, source, 'url');
  }
  w.raw(CLOSE_OBJECT);
}

function writeSeries(w: DigestJsonWriter, s: unknown, prefixes: ClockPrefixes): void {
  if (!isPlainObject(s)) return w.value(s);
  const { group, id, kind, max_age_seconds: maxAge, max_gap_seconds: maxGap, observations, source, unit } = s;
  if (
    id === undefined ||
    kind === undefined ||
    maxAge === undefined ||
    observations === undefined ||
    source === undefined ||
    unit === undefined ||
    !hasOnly(s, 6 + present(group) + present(maxGap))
  ) {
    return w.value(s);
  }
  if (group !== undefined) {
    w.raw(GROUP_FIRST);
    w.member(group, s, 'group');
    w.raw(ID_AFTER_GROUP);
  } else {
    w.raw(ID_FIRST);
  }
  w.member(id, s, 'id');
  w.raw(KIND);
  w.member(kind, s, 'kind');
  w.raw(MAX_AGE);
  w.member(maxAge, s, 'max_age_seconds');
  if (maxGap !== undefined) {
    w.raw(MAX_GAP);
    w.member(maxGap, s, 'max_gap_seconds');
  }
  w.raw(OBSERVATIONS);
  writeObservations(w, observations, prefixes);
  w.raw(SOURCE);
  writeSource(w, source);
  w.raw(UNIT);
  w.member(unit, s, 'unit');
  w.raw(CLOSE_OBJECT);
}

/**
 * SHA-256 (hex) of the digest form of `{series, as_of}`, plus `policy` when `request` has
 * that member (an explicit `{}` counts). Throws `LoneSurrogateError` as the generic
 * encoder does.
 */
export function seriesRequestSha256(request: { series: unknown; as_of: unknown; policy?: unknown }): string {
  const w = new DigestJsonWriter();
  w.raw(AS_OF);
  // The generic encoder sees as_of in a fresh object without number kinds.
  w.value(request.as_of);
  // The policy is a handful of members: the generic encoder is fine for it.
  if (Object.hasOwn(request, 'policy')) {
    w.raw(POLICY);
    w.value(request.policy);
  }
  w.raw(SERIES);
  const series = request.series;
  if (Array.isArray(series)) {
    const prefixes = new ClockPrefixes();
    w.raw(OPEN_ARRAY);
    for (let i = 0; i < series.length; i++) {
      if (i > 0) w.raw(COMMA);
      writeSeries(w, series[i], prefixes);
    }
    w.raw(CLOSE_ARRAY);
  } else {
    w.value(series);
  }
  w.raw(CLOSE_OBJECT);
  return w.sha256Hex();
}
