// The byte buffer every encoder writes into, with direct writers for the number forms
// that dominate large documents.
import { floatText, formatInteger } from './format.js';

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
    const n = text.length;
    this.reserve(n + 2);
    const buf = this.buf;
    let len = this.len;
    buf[len++] = 0x22;
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return false;
      buf[len++] = c;
    }
    buf[len++] = 0x22;
    this.len = len;
    return true;
  }

  /**
   * A non-negative integer below 2^31, zero-padded to `width` digits (at least as many as
   * it has), written without building a string.
   */
  private digits(value: number, width: number): void {
    this.reserve(width);
    const buf = this.buf;
    let p = this.len + width;
    this.len = p;
    for (let i = 0; i < width; i++) {
      const q = (value / 10) | 0;
      buf[--p] = 0x30 + value - q * 10;
      value = q;
    }
  }

  private static digitCount(value: number): number {
    let width = 1;
    while (value >= 10 && width < 10) {
      value = (value / 10) | 0;
      width++;
    }
    return width;
  }

  /** `formatInteger(n)` for an integral `n`; small values skip the string round trip. */
  integer(n: number): void {
    if (n > -2147483648 && n < 2147483648) {
      if (n < 0) {
        this.byte(0x2d);
        n = -n;
      }
      // -0 lands here as 0 and prints `0`, as formatInteger does.
      this.digits(n, ByteSink.digitCount(n));
      return;
    }
    this.ascii(formatInteger(n));
  }

  /**
   * `floatText(n)`: Python's repr of a float. Decimals with at most six fractional digits
   * (the bulk of market data) are written digit by digit — the same test and the same
   * text as floatText's fast path, without its intermediate strings.
   */
  float(n: number): void {
    const a = n < 0 ? -n : n;
    if (a >= 1e-4 && a < 1e9) {
      const scaled = Math.round(a * 1e6);
      if (scaled / 1e6 === a) {
        // `scaled` is an integer below 1e15, so % and the division below are exact.
        let fraction = scaled % 1e6;
        const whole = (scaled - fraction) / 1e6;
        if (n < 0) this.byte(0x2d);
        this.digits(whole, ByteSink.digitCount(whole));
        this.byte(0x2e);
        // Six fractional digits without their trailing zeros, at least one digit.
        let width = 6;
        if (fraction === 0) width = 1;
        else {
          while (fraction % 10 === 0) {
            fraction /= 10;
            width--;
          }
        }
        this.digits(fraction, width);
        return;
      }
    }
    this.ascii(floatText(n));
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
