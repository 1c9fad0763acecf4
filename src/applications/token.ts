// Application tokens: `fe_` + 32 random bytes in unpadded base64url, shown to the client
// once. Only the hex SHA-256 of the whole token text is ever stored.

import { randomBytes, randomUUID } from 'node:crypto';
import { sha256Hex } from '../core/hash.js';

export const TOKEN_PATTERN = /^fe_[A-Za-z0-9_-]{43}$/;
const BEARER_PATTERN = /^Bearer (fe_[A-Za-z0-9_-]{43})$/;
export const APPLICATION_ID_PATTERN = /^[0-9a-f]{32}$/;

export function newToken(): string {
  return `fe_${randomBytes(32).toString('base64url')}`;
}

/** A UUIDv4 without dashes: 32 lowercase hex characters. */
export function newApplicationId(): string {
  return randomUUID().replace(/-/g, '');
}

export function tokenDigest(token: string): string {
  return sha256Hex(token);
}

export type ParsedAuthorization =
  | { kind: 'absent' }
  | { kind: 'malformed' }
  | { kind: 'bearer'; token: string };

/**
 * Reads an Authorization header value. An absent or empty header means "no key"; anything
 * else must be exactly `Bearer ` (case-sensitive, one space) and a well-formed token.
 */
export function parseAuthorization(value: string | string[] | undefined): ParsedAuthorization {
  if (value === undefined) return { kind: 'absent' };
  if (Array.isArray(value)) return value.length === 0 ? { kind: 'absent' } : { kind: 'malformed' };
  if (value === '') return { kind: 'absent' };
  const m = BEARER_PATTERN.exec(value);
  return m ? { kind: 'bearer', token: m[1] } : { kind: 'malformed' };
}
