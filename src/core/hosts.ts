// The operator's list of host names this instance answers for (EVIDENCE_ALLOWED_HOSTS).
// A browser page on a name the attacker controls can be pointed at this service by DNS
// rebinding: to the browser it is then same-origin, so CORS does not stop it, but its
// requests still carry the attacker's name in Host. Refusing names not on the list closes
// that door (the MCP transport guidance asks for the same). An empty list answers any Host.
//
// An entry without a port matches the name on any port; one with a port matches only it.
// Names compare case-insensitively, and a trailing dot (an absolute DNS name) is ignored.

import { isIPv6 } from 'node:net';

export type HostCheck = (host: string | undefined) => boolean;

function normalise(name: string): string {
  const lower = name.toLowerCase();
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

/** An IPv6 address as a URI's IP literal holds it: Node's isIPv6 also takes a zone (`fe80::1%eth0`), which it cannot carry. */
function isIPv6Literal(inner: string): boolean {
  return isIPv6(inner) && !inner.includes('%');
}

function isName(text: string): boolean {
  if (text.startsWith('[')) return text.endsWith(']') && isIPv6Literal(text.slice(1, -1));
  const name = text.endsWith('.') ? text.slice(0, -1) : text;
  return name.length > 0 && name.length <= 253 && name.split('.').every((label) => LABEL.test(label));
}

/**
 * Splits `name[:port]` (or `[v6]:port`); undefined for text that is no host, or a port outside
 * 1–65535. An empty port (`name:`) is no port, as RFC 3986 §3.2.3 reads it.
 */
export function splitHost(text: string): { name: string; port: string | undefined } | undefined {
  const m = /^(\[[^\]]*\]|[^:]+)(?::([0-9]{0,5}))?$/.exec(text);
  if (!m || !isName(m[1])) return undefined;
  const port = m[2] === '' ? undefined : m[2];
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return undefined;
  return { name: normalise(m[1]), port };
}

// RFC 3986 §3.2.2: a bracketed IP literal, or a reg-name (an IPv4 address is one too) of
// unreserved, percent-encoded and sub-delimiter characters, possibly empty; then a port of digits.
const REG_NAME_HOST = /^(?:[a-z0-9\-._~!$&'()*+,;=]|%[0-9a-f]{2})*(?::[0-9]*)?$/i;
const LITERAL_HOST = /^\[([^\]]*)\](?::[0-9]*)?$/;
const IP_FUTURE = /^v[0-9a-f]+\.[a-z0-9\-._~!$&'()*+,;=:]+$/i;

/** Whether a Host field value is `uri-host [ ":" port ]` (RFC 9110 §7.2); `user@host`, `a b`, `x/y` are not. */
export function isHostFieldValue(value: string): boolean {
  const literal = LITERAL_HOST.exec(value);
  if (literal) return isIPv6Literal(literal[1]) || IP_FUTURE.test(literal[1]);
  return REG_NAME_HOST.test(value);
}

/** The check for `allowed` (entries already validated by the configuration), or undefined when any Host is answered. */
export function hostCheck(allowed: readonly string[]): HostCheck | undefined {
  if (allowed.length === 0) return undefined;
  const anyPort = new Set<string>();
  const exact = new Set<string>();
  for (const entry of allowed) {
    const host = splitHost(entry);
    if (!host) throw new Error(`not a host: ${entry}`);
    if (host.port === undefined) anyPort.add(host.name);
    else exact.add(`${host.name}:${Number(host.port)}`);
  }
  return (header) => {
    if (header === undefined) return false;
    const host = splitHost(header.trim());
    if (!host) return false;
    return anyPort.has(host.name) || (host.port !== undefined && exact.has(`${host.name}:${Number(host.port)}`));
  };
}
