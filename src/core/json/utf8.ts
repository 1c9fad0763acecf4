// Where UTF-8 goes wrong. Node's isUtf8 and TextDecoder say only whether bytes are valid;
// a refusal that names the byte lets a caller find the fault (Python's UnicodeDecodeError
// names it too). Only asked once bytes are known to be invalid, so it favours plainness.

/**
 * The offset of the first byte that does not begin a well-formed UTF-8 sequence (Unicode
 * §3.9, Table 3-7: no overlong forms, no surrogates, nothing past U+10FFFF), a sequence cut
 * off by the end included; -1 when all of the bytes are well-formed.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i];
    if (lead < 0x80) {
      i++;
      continue;
    }
    const width = sequenceWidth(lead);
    if (width === 0 || i + width > bytes.length) return i;
    // The second byte's range depends on the lead (it excludes overlongs, surrogates and
    // code points past U+10FFFF); the rest are plain continuation bytes.
    const [low, high] = secondByteRange(lead);
    if (bytes[i + 1] < low || bytes[i + 1] > high) return i;
    for (let k = 2; k < width; k++) if ((bytes[i + k] & 0xc0) !== 0x80) return i;
    i += width;
  }
  return -1;
}

function sequenceWidth(lead: number): number {
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

function secondByteRange(lead: number): [number, number] {
  if (lead === 0xe0) return [0xa0, 0xbf];
  if (lead === 0xed) return [0x80, 0x9f];
  if (lead === 0xf0) return [0x90, 0xbf];
  if (lead === 0xf4) return [0x80, 0x8f];
  return [0x80, 0xbf];
}
