// A streaming writer of the digest form for callers that know their document's shape.
//
// `sha256OfDigestJson` discovers every object's keys, sorts them and dispatches on each
// value's type; for a document whose layout is fixed by a schema the caller can emit the
// sorted keys itself and use this writer only for the values. Values are written exactly
// as the generic encoder writes them (same string escaping and lone-surrogate error, same
// number kinds), so both produce the same bytes.
import { createHash, type Hash } from 'node:crypto';
import { DIGEST, Encoder } from './encoder.js';
import { numberKinds, type Key } from './kinds.js';
import { ByteSink } from './sink.js';

export class DigestJsonWriter {
  private readonly hash: Hash = createHash('sha256');
  /** For callers that write tokens in place (see `ByteSink.room` and put.ts). */
  readonly sink = new ByteSink(this.hash);
  private readonly encoder = new Encoder(DIGEST, this.sink);

  /** Pre-encoded UTF-8 the caller vouches for: punctuation and `"key":` prefixes. */
  raw(bytes: Uint8Array): void {
    this.sink.bytes(bytes);
  }

  /** Any JSON value, through the generic encoder (keys discovered and sorted). */
  value(v: unknown): void {
    this.encoder.value(v, undefined, 0, 0);
  }

  /**
   * `value`, read by the caller from `container[key]` (typically a string or a number): a
   * number's kind comes from the container's side table, looked up only for integral
   * values (the only ones it affects). The caller reads the member by name, which keeps
   * that property access monomorphic; a keyed read here would not be.
   */
  member(value: unknown, container: object, key: Key): void {
    if (typeof value === 'string') this.encoder.string(value);
    else if (typeof value === 'number') {
      this.encoder.number(Number.isInteger(value) ? numberKinds.get(container) : undefined, key, value);
    } else this.value(value);
  }

  /** Ends the document; returns its SHA-256 in hex. */
  sha256Hex(): string {
    this.sink.end();
    return this.hash.digest('hex');
  }
}
