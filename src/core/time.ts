// UTC instants with microsecond resolution. JS `Date` keeps milliseconds only, and the
// analysis contract compares and subtracts microsecond clocks exactly, so instants are
// BigInt microseconds since the Unix epoch.

export type Instant = bigint;

const MICROS_PER_SECOND = 1_000_000n;
const TWO_POW_53 = 2n ** 53n;

// Any explicit offset; used where a caller may name an instant in another zone.
const OFFSET_TIMESTAMP =
  /^([0-9]{4})-([0-9]{2})-([0-9]{2})[T ]([0-9]{2}):([0-9]{2})(?::([0-9]{2})(?:\.([0-9]{1,6}))?)?(Z|z|[+-][0-9]{2}:[0-9]{2})$/;

const ISO_DATE = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/;

function isLeapYear(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

export function daysInMonth(y: number, m: number): number {
  if (m === 2) return isLeapYear(y) ? 29 : 28;
  return m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

/** Days since 1970-01-01 for a proleptic Gregorian date (Hinnant's algorithm). */
export function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

export function civilFromDays(z: number): { year: number; month: number; day: number } {
  const zz = z + 719468;
  const era = Math.floor(zz / 146097);
  const doe = zz - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: era * 400 + yoe + (month <= 2 ? 1 : 0), month, day };
}

function validCalendar(y: number, mo: number, d: number, h: number, mi: number, s: number): boolean {
  return (
    y >= 1 && y <= 9999 && mo >= 1 && mo <= 12 && d >= 1 && d <= daysInMonth(y, mo) &&
    h <= 23 && mi <= 59 && s <= 59
  );
}

function toInstant(y: number, mo: number, d: number, h: number, mi: number, s: number, frac: string | undefined): Instant {
  const seconds = daysFromCivil(y, mo, d) * 86400 + h * 3600 + mi * 60 + s;
  const micros = frac === undefined ? 0 : Number(frac.padEnd(6, '0'));
  return BigInt(seconds) * MICROS_PER_SECOND + BigInt(micros);
}

function digitAt(text: string, i: number): number {
  const d = text.charCodeAt(i) - 48;
  return d >= 0 && d <= 9 ? d : -1;
}

function twoDigits(text: string, i: number): number {
  const a = digitAt(text, i);
  const b = digitAt(text, i + 1);
  return a < 0 || b < 0 ? -1 : a * 10 + b;
}

// Fields of the clock `scanUtcTimestamp` read last. Module slots rather than a returned
// object: validation checks some 130 000 clocks per large request and needs neither an
// allocation nor the epoch arithmetic.
const scanned = { y: 0, mo: 0, d: 0, h: 0, mi: 0, sec: 0, micros: 0 };

/**
 * Reads the strict UTC clock accepted by the analysis operations,
 * `YYYY-MM-DDTHH:MM:SS[.f{1,6}](Z|+00:00)` naming a real instant, by character codes.
 * Returns whether it is one; its fields are then in `scanned`.
 */
function scanUtcTimestamp(text: string): boolean {
  const n = text.length;
  if (n < 20 || n > 32) return false;
  if (text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(10) !== 84 ||
      text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58) return false;
  const y1 = twoDigits(text, 0), y2 = twoDigits(text, 2);
  const mo = twoDigits(text, 5), d = twoDigits(text, 8);
  const h = twoDigits(text, 11), mi = twoDigits(text, 14), sec = twoDigits(text, 17);
  if (y1 < 0 || y2 < 0 || mo < 0 || d < 0 || h < 0 || mi < 0 || sec < 0) return false;
  let p = 19;
  let micros = 0;
  if (text.charCodeAt(p) === 46) {
    p++;
    let scale = 100000;
    const fracStart = p;
    while (p < n && p - fracStart < 7) {
      const digit = digitAt(text, p);
      if (digit < 0) break;
      micros += digit * scale;
      scale /= 10;
      p++;
    }
    const fracLen = p - fracStart;
    if (fracLen < 1 || fracLen > 6) return false;
  }
  const rest = n - p;
  if (rest === 1) {
    if (text.charCodeAt(p) !== 90) return false; // 'Z'
  } else if (rest === 6) {
    if (text.charCodeAt(p) !== 43 || text.charCodeAt(p + 1) !== 48 || text.charCodeAt(p + 2) !== 48 ||
        text.charCodeAt(p + 3) !== 58 || text.charCodeAt(p + 4) !== 48 || text.charCodeAt(p + 5) !== 48) return false;
  } else {
    return false;
  }
  const y = y1 * 100 + y2;
  if (!validCalendar(y, mo, d, h, mi, sec)) return false;
  scanned.y = y; scanned.mo = mo; scanned.d = d; scanned.h = h; scanned.mi = mi; scanned.sec = sec;
  scanned.micros = Math.round(micros);
  return true;
}

/** Whether the text is a strict UTC clock (what `parseUtcTimestamp` accepts), without building it. */
export function isUtcTimestamp(text: string): boolean {
  return scanUtcTimestamp(text);
}

/** Parses the strict UTC clock of the analysis operations; null when it is not one. */
export function parseUtcTimestamp(text: string): Instant | null {
  if (!scanUtcTimestamp(text)) return null;
  const { y, mo, d, h, mi, sec, micros } = scanned;
  return BigInt(daysFromCivil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec) * MICROS_PER_SECOND + BigInt(micros);
}

/**
 * The strict UTC clock as microseconds since the epoch in a double: exact for every clock
 * within ±2^53 µs (about 1685 to 2255), NaN for one beyond that (use parseUtcTimestamp
 * then), null when the text is not a clock. Spares the BigInt where a double is exact.
 */
export function parseUtcMicros(text: string): number | null {
  if (!scanUtcTimestamp(text)) return null;
  const { y, mo, d, h, mi, sec, micros } = scanned;
  const seconds = daysFromCivil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec;
  // Below 2^53 / 10^6 seconds the product and the sum are exact integers under 2^53.
  if (seconds < 9007199254 && seconds > -9007199254) return seconds * 1e6 + micros;
  const exact = BigInt(seconds) * MICROS_PER_SECOND + BigInt(micros);
  return exact > TWO_POW_53 || exact < -TWO_POW_53 ? NaN : Number(exact);
}

/**
 * Parses an ISO 8601 timestamp that states its offset (`Z` or `±HH:MM`), converting it to
 * UTC. A timestamp without a zone is refused: its instant would be a guess.
 */
export function parseOffsetTimestamp(text: string): Instant | null {
  const m = OFFSET_TIMESTAMP.exec(text);
  if (!m) return null;
  const y = +m[1], mo = +m[2], d = +m[3], h = +m[4], mi = +m[5], s = m[6] === undefined ? 0 : +m[6];
  if (!validCalendar(y, mo, d, h, mi, s)) return null;
  let instant = toInstant(y, mo, d, h, mi, s, m[7]);
  const zone = m[8];
  if (zone !== 'Z' && zone !== 'z') {
    const sign = zone[0] === '-' ? -1 : 1;
    const oh = +zone.slice(1, 3), om = +zone.slice(4, 6);
    if (oh > 23 || om > 59) return null;
    instant -= BigInt(sign * (oh * 3600 + om * 60)) * MICROS_PER_SECOND;
  }
  return instant;
}

/**
 * Exact difference in seconds, correctly rounded to a double — what Python's
 * `timedelta.total_seconds()` yields for the same two instants.
 */
export function secondsBetween(later: Instant, earlier: Instant): number {
  const diff = later - earlier;
  const magnitude = diff < 0n ? -diff : diff;
  if (magnitude <= TWO_POW_53) return Number(diff) / 1e6;
  // Above 2^53 µs the Number conversion would round before the division; divide in
  // BigInt with a sticky bit so the single final rounding is the correct one.
  const shifted = magnitude << 64n;
  let q = shifted / MICROS_PER_SECOND;
  q = q * 2n + (shifted % MICROS_PER_SECOND === 0n ? 0n : 1n);
  const value = Number(q) / 2 ** 65;
  return diff < 0n ? -value : value;
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

function split(i: Instant): { date: string; time: string; micros: number } {
  let seconds = i / MICROS_PER_SECOND;
  let micros = i % MICROS_PER_SECOND;
  if (micros < 0n) {
    micros += MICROS_PER_SECOND;
    seconds -= 1n;
  }
  const secs = Number(seconds);
  const days = Math.floor(secs / 86400);
  const rem = secs - days * 86400;
  const { year, month, day } = civilFromDays(days);
  return {
    date: `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`,
    time: `${pad(Math.floor(rem / 3600), 2)}:${pad(Math.floor((rem % 3600) / 60), 2)}:${pad(rem % 60, 2)}`,
    micros: Number(micros),
  };
}

/** `YYYY-MM-DDTHH:MM:SSZ`, with `.ffffff` only when the microseconds are not zero. */
export function formatInstantZ(i: Instant): string {
  const { date, time, micros } = split(i);
  return micros === 0 ? `${date}T${time}Z` : `${date}T${time}.${pad(micros, 6)}Z`;
}

/** `YYYY-MM-DDTHH:MM:SS.ffffff+00:00`: the archive's clock format (always 6 digits). */
export function formatInstantOffset(i: Instant): string {
  const { date, time, micros } = split(i);
  return `${date}T${time}.${pad(micros, 6)}+00:00`;
}

/** Compact form used inside identifiers: `YYYYMMDDTHHMMSS.ffffffZ`. */
export function formatInstantCompact(i: Instant): string {
  const { date, time, micros } = split(i);
  return `${date.replaceAll('-', '')}T${time.replaceAll(':', '')}.${pad(micros, 6)}Z`;
}

/**
 * Wall clock now, in microseconds. `Date` stops at milliseconds; the microsecond digits
 * come from the high-resolution clock, so instants taken in one millisecond still differ.
 */
export function nowInstant(): Instant {
  const sub = process.hrtime.bigint() / 1000n % 1000n;
  return BigInt(Date.now()) * 1000n + sub;
}

/** Days since the epoch for a strict `YYYY-MM-DD` calendar date, or null. */
export function parseIsoDate(text: string): number | null {
  const m = ISO_DATE.exec(text);
  if (!m) return null;
  const y = +m[1], mo = +m[2], d = +m[3];
  if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return null;
  return daysFromCivil(y, mo, d);
}

export function formatIsoDate(days: number): string {
  const { year, month, day } = civilFromDays(days);
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

/** The UTC calendar day (days since epoch) an instant falls on. */
export function utcDayOf(i: Instant): number {
  const secs = i / MICROS_PER_SECOND - (i < 0n && i % MICROS_PER_SECOND !== 0n ? 1n : 0n);
  return Math.floor(Number(secs) / 86400);
}

/** 0 = Sunday … 6 = Saturday. */
export function weekdayOfDays(days: number): number {
  return (((days + 4) % 7) + 7) % 7;
}
