// JSON texts of the data group.
//
// Bodies: FastAPI (the upstream) sends `json.dumps(..., separators=(",", ":"),
// ensure_ascii=False)`, so a body here is compact, in insertion order, non-ASCII kept, and
// numbers printed as Python prints them: a float-kind value is `66.0`, never `66` (see
// docs/DECISIONS.md, "Data (group C)"). Row `context` members are JSON texts made with
// `json.dumps(..., sort_keys=True)` and its default `", "` / `": "` separators.
//
// Source documents are untrusted: their strings may hold lone surrogates (JSON allows the
// escape, UTF-8 cannot carry it). Everything copied out of a document goes through
// `copyInto` (or `copiedObject`, `memberJson`), which replaces a lone surrogate by U+FFFD
// and keeps number kinds, so encoding can never fail on source content.

import { Encoder, type Layout } from '../core/json/encoder.js';
import { ByteSink } from '../core/json/sink.js';
import { copyMember, rawIntegerOf } from '../core/json.js';
import { numberKinds } from '../core/json/kinds.js';

const BODY: Layout = { sortKeys: false, ascii: false, indent: null, itemSeparator: ',', keySeparator: ':' };
const CONTEXT: Layout = { sortKeys: true, ascii: false, indent: null, itemSeparator: ', ', keySeparator: ': ' };

function encode(value: unknown, layout: Layout): Buffer {
  const sink = new ByteSink(null);
  new Encoder(layout, sink).value(value, undefined, 0, 0);
  return sink.finish();
}

/** A response body of the data group as UTF-8 bytes. */
export function encodeDataBody(value: unknown): Buffer {
  return encode(value, BODY);
}

/** The JSON text of a row's `context` (sorted keys, Python's default separators). */
export function contextJson(value: unknown): string {
  return encode(value, CONTEXT).toString('utf8');
}

function wellFormed(s: string): string {
  return s.isWellFormed() ? s : s.toWellFormed();
}

/** Where a member is copied from: a document node and its key; null (or an absent key) copies as null. */
export type From = readonly [container: object, key: string | number] | null;

/**
 * `from`'s member copied into `target[targetKey]`, safe to put in a response: number kinds
 * kept (`30.0` stays a float, an integer beyond 2^53 keeps its digits), lone surrogates in
 * strings and keys replaced. A number's kind belongs to the member, not to the value, so a
 * member is always copied into its place, never handed back bare.
 */
export function copyInto(target: object, targetKey: string | number, from: From): void {
  if (from === null || !Object.hasOwn(from[0], from[1])) (target as Record<string | number, unknown>)[targetKey] = null;
  else placeInto(target, targetKey, from[0], from[1]);
}

/** An object of members copied from documents (see copyInto), for a row's `context`. */
export function copiedObject(members: Readonly<Record<string, From>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, from] of Object.entries(members)) copyInto(out, name, from);
  return out;
}

/** The `context` JSON text of one member of a document (null when absent). */
export function memberJson(container: object, key: string | number): string {
  const holder = copiedObject({ member: [container, key] });
  const sink = new ByteSink(null);
  new Encoder(CONTEXT, sink).value(holder.member, numberKinds.get(holder), 'member', 0);
  return sink.finish().toString('utf8');
}

function copyTree(value: object): unknown {
  if (Array.isArray(value)) {
    const out: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) placeInto(out, i, value, i);
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const target = wellFormed(key);
    if (target === '__proto__') {
      Object.defineProperty(out, target, { value: null, enumerable: true, writable: true, configurable: true });
    }
    placeInto(out, target, value, key);
  }
  return out;
}

function placeInto(target: object, targetKey: string | number, source: object, sourceKey: string | number): void {
  const value = (source as Record<string | number, unknown>)[sourceKey];
  // An integer beyond a double's range is held as the text of its digits (hugeIntegers),
  // marked as such: it is copied with its mark and written as digits, as Python writes it.
  if (typeof value === 'string' && rawIntegerOf(source, sourceKey) === undefined) (target as Record<string | number, unknown>)[targetKey] = wellFormed(value);
  else if (value !== null && typeof value === 'object') (target as Record<string | number, unknown>)[targetKey] = copyTree(value);
  else copyMember(target, targetKey, source, sourceKey);
}

/** A string from a document, made encodable. */
export function safeText(s: string | null): string | null {
  return s === null ? null : wellFormed(s);
}
