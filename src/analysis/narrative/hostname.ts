// The host part of a source URL, as the reference reads it: CPython 3.11's
// `urllib.parse.urlsplit(url).hostname`, where a ValueError from urlsplit means "no host".
//
// Deliberately not WHATWG `new URL()`: it rewrites hosts (IDNA to punycode, IPv4 shorthand
// such as `0x7f.1` to `127.0.0.1`, percent-decoding) and refuses or reinterprets inputs
// urlsplit accepts (`//host/x`, `foo://Host` keeps its case, `host:port` with a bad port),
// so family strings derived from it would differ from the reference's. This is a direct
// port of the few lines of urlsplit that decide the network location and host, checked
// against Python's own answers (test/analysis/narrative/text-fixtures.json).
//
// Differences from Python, none of which reaches a family string: we never lower-case
// with Python's `str.lower` (the family rule folds anyway, and fold(lower(c)) = fold(c)
// for every Unicode 14 code point); urlsplit's result cache and bytes input have no
// counterpart. The fixtures cover schemes, userinfo, ports, IPv6/IPvFuture brackets
// (valid and not), NFKC-unsafe netlocs, control characters and non-ASCII hosts.
import { casefold, nfkc } from './text.js';

const SCHEME_CHAR = /^[A-Za-z0-9+\-.]*$/;
const LEADING_C0_OR_SPACE = /^[\u0000-\u0020]+/;
const TAB_OR_NEWLINE = /[\t\r\n]/g;
const IPV_FUTURE = /^v[a-fA-F0-9]+\.[^\n]+$/u;
const ASCII_DIGITS = /^[0-9]+$/;
const HEX_DIGITS = /^[0-9a-fA-F]*$/;
const ASCII_ONLY = /^[\u0000-\u007f]*$/;

/** `urlsplit`'s netloc, or null when urlsplit raises ValueError. */
export function urlsplitNetloc(input: string): string | null {
  let url = input.replace(LEADING_C0_OR_SPACE, '').replace(TAB_OR_NEWLINE, '');
  const colon = url.indexOf(':');
  if (colon > 0 && /^[A-Za-z]/.test(url) && SCHEME_CHAR.test(url.slice(0, colon))) {
    url = url.slice(colon + 1);
  }
  let netloc = '';
  if (url.startsWith('//')) {
    let end = url.length;
    for (const delimiter of ['/', '?', '#']) {
      const at = url.indexOf(delimiter, 2);
      if (at >= 0 && at < end) end = at;
    }
    netloc = url.slice(2, end);
    const open = netloc.includes('[');
    const close = netloc.includes(']');
    if (open !== close) return null;
    if (open) {
      const afterOpen = netloc.slice(netloc.indexOf('[') + 1);
      const closeAt = afterOpen.indexOf(']');
      if (!bracketedHostValid(closeAt === -1 ? afterOpen : afterOpen.slice(0, closeAt))) return null;
    }
  }
  if (!netlocSurvivesNfkc(netloc)) return null;
  return netloc;
}

/**
 * `urlsplit(url).hostname` without its final lower-casing, or null (no host, or the URL
 * does not split). Callers fold the result themselves.
 */
export function urlsplitHostRaw(url: string): string | null {
  const netloc = urlsplitNetloc(url);
  if (netloc === null) return null;
  const hostinfo = netloc.slice(netloc.lastIndexOf('@') + 1);
  const open = hostinfo.indexOf('[');
  let host: string;
  if (open !== -1) {
    const bracketed = hostinfo.slice(open + 1);
    const close = bracketed.indexOf(']');
    host = close === -1 ? bracketed : bracketed.slice(0, close);
  } else {
    const colon = hostinfo.indexOf(':');
    host = colon === -1 ? hostinfo : hostinfo.slice(0, colon);
  }
  return host === '' ? null : host;
}

/**
 * The host as the family rule uses it: lower-cased and case-folded. Python lower-cases
 * the host (not an IPv6 zone) and the rule then folds everything; since
 * `casefold(lower(c)) == casefold(c)` for every code point in Unicode 14.0 (checked when
 * the table was generated), one fold gives the same text.
 */
export function foldedUrlHost(url: string): string | null {
  const host = urlsplitHostRaw(url);
  return host === null ? null : casefold(host);
}

// urlsplit refuses a netloc whose NFKC form gains one of `/?#@:` (for example U+2100 ℀ →
// `a/c`), since a browser's IDNA step would reinterpret it.
function netlocSurvivesNfkc(netloc: string): boolean {
  if (netloc === '' || ASCII_ONLY.test(netloc)) return true;
  const stripped = netloc.replace(/[@:#?]/g, '');
  const normalised = nfkc(stripped);
  if (normalised === stripped) return true;
  return !/[/?#@:]/.test(normalised);
}

function bracketedHostValid(host: string): boolean {
  if (host.startsWith('v')) return IPV_FUTURE.test(host);
  // ipaddress.ip_address: IPv4 first (refused inside brackets), then IPv6.
  if (isIPv4(host)) return false;
  return isIPv6(host);
}

function isIPv4(text: string): boolean {
  if (text === '' || text.includes('/')) return false;
  const octets = text.split('.');
  if (octets.length !== 4) return false;
  for (const octet of octets) {
    if (!ASCII_DIGITS.test(octet) || octet.length > 3) return false;
    if (octet !== '0' && octet[0] === '0') return false;
    if (Number(octet) > 255) return false;
  }
  return true;
}

function isIPv6(text: string): boolean {
  if (text.includes('/')) return false;
  const percent = text.indexOf('%');
  let address = text;
  if (percent !== -1) {
    const scope = text.slice(percent + 1);
    if (scope === '' || scope.includes('%')) return false;
    address = text.slice(0, percent);
  }
  if (address === '') return false;
  const parts = address.split(':');
  if (parts.length < 3) return false;
  if (parts[parts.length - 1].includes('.')) {
    if (!isIPv4(parts.pop()!)) return false;
    parts.push('0', '0'); // two hextets stand in for the embedded IPv4 address
  }
  if (parts.length > 9) return false;
  let skip = -1;
  for (let i = 1; i < parts.length - 1; i++) {
    if (parts[i] === '') {
      if (skip !== -1) return false;
      skip = i;
    }
  }
  let hi: number;
  let lo: number;
  if (skip !== -1) {
    hi = skip;
    lo = parts.length - skip - 1;
    if (parts[0] === '' && --hi !== 0) return false;
    if (parts[parts.length - 1] === '' && --lo !== 0) return false;
    if (8 - (hi + lo) < 1) return false;
  } else {
    if (parts.length !== 8 || parts[0] === '' || parts[parts.length - 1] === '') return false;
    hi = parts.length;
    lo = 0;
  }
  const checked = [...parts.slice(0, hi), ...parts.slice(parts.length - lo)];
  return checked.every((h) => h !== '' && h.length <= 4 && HEX_DIGITS.test(h));
}
