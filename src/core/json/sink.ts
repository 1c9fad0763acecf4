// The byte buffer every encoder writes into, with direct writers for the number forms
// that dominate large documents.
import { floatText, formatInteger } from './format.js';
import { MAX_FAST_NUMBER_BYTES, putPlainQuoted, putSixDecimalFloat, putSmallInteger } from './put.js';

// Output goes into a growing byte buffer (or straight into a hash), not into a string
// built by concatenation: an 8 MB request digest would otherwise create millions of
// short-lived string pieces and spend most of its time in the garbage collector.
export interface ByteTarget {
  update(chunk: Buffer): void;
}

const MAX_CHUNK = 1 << 16;

export class ByteSink {
  // Starts small (many encodes are a few hundred bytes) and doubles up to 64 KiB, after
  // which full chunks go to the target.
  private buf = Buffer.allocUnsafe(256);
  private len = 0;
  private readonly chunks: Buffer[] = [];

  constructor(private readonly target: ByteTarget | null) {}

  private flush(): void {
    if (this.len === 0) return;
    if (this.target) this.target.update(this.buf.subarray(0, this.len));
    else this.chunks.push(Buffer.from(this.buf.subarray(0, this.len)));
    this.len = 0;
  }

  private reserve(bytes: number): void {
    const needed = this.len + bytes;
    if (needed <= this.buf.length) return;
    if (this.buf.length < MAX_CHUNK) {
      let size = this.buf.length * 2;
      while (size < needed && size < MAX_CHUNK) size *= 2;
      if (size >= needed) {
        const grown = Buffer.allocUnsafe(size);
        this.buf.copy(grown, 0, 0, this.len);
        this.buf = grown;
        return;
      }
    }
    this.flush();
    if (bytes > this.buf.length) this.buf = Buffer.allocUnsafe(Math.max(bytes, MAX_CHUNK));
  }

  /** Text known to be ASCII and short (punctuation, numbers, indentation). */
  ascii(text: string): void {
    const n = text.length;
    this.reserve(n);
    const buf = this.buf;
    let len = this.len;
    for (let i = 0; i < n; i++) buf[len++] = text.charCodeAt(i);
    this.len = len;
  }

  /**
   * Writes `"text"` when every character is printable ASCII other than `"` and `\\`
   * (no escaping needed in any layout); returns false, writing nothing, otherwise.
   */
  plainQuoted(text: string): boolean {
    this.reserve(text.length + 2);
    const end = putPlainQuoted(this.buf, this.len, text);
    if (end < 0) return false;
    this.len = end;
    return true;
  }

  /** `formatInteger(n)` for an integral `n`; small values skip the string round trip. */
  integer(n: number): void {
    if (n > -2147483648 && n < 2147483648) {
      this.reserve(11);
      this.len = putSmallInteger(this.buf, this.len, n);
      return;
    }
    this.ascii(formatInteger(n));
  }

  /** `floatText(n)`: Python's repr of a float, common decimals without intermediate strings. */
  float(n: number): void {
    this.reserve(MAX_FAST_NUMBER_BYTES);
    const end = putSixDecimalFloat(this.buf, this.len, n);
    if (end >= 0) this.len = end;
    else this.ascii(floatText(n));
  }

  /**
   * Room for `bytes` more bytes at `position`, for callers that write tokens with the
   * positional writers of put.ts and then move the position with `advanceTo`.
   */
  room(bytes: number): Buffer {
    this.reserve(bytes);
    return this.buf;
  }

  get position(): number {
    return this.len;
  }

  advanceTo(position: number): void {
    this.len = position;
  }

  bytes(data: Uint8Array): void {
    const n = data.length;
    this.reserve(n);
    // A typed-array copy costs about as much as copying eight bytes one by one.
    if (n >= 8) {
      this.buf.set(data, this.len);
      this.len += n;
      return;
    }
    const buf = this.buf;
    let len = this.len;
    for (let i = 0; i < n; i++) buf[len++] = data[i];
    this.len = len;
  }

  byte(b: number): void {
    if (this.len === this.buf.length) this.flush();
    this.buf[this.len++] = b;
  }

  text(text: string): void {
    if (text.length < 32) {
      let ascii = true;
      for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) { ascii = false; break; }
      if (ascii) {
        this.ascii(text);
        return;
      }
    }
    this.reserve(text.length * 3);
    this.len += this.buf.write(text, this.len, 'utf8');
  }

  finish(): Buffer {
    this.flush();
    return this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
  }

  end(): void {
    this.flush();
  }
}
