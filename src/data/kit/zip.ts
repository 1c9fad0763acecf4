// A byte-reproducible zip: entries sorted by name, stored (no compression, so no
// compressor version can change the bytes), one fixed timestamp, Unix mode 0644. Written
// by hand because a library's defaults (local time zone for DOS timestamps, extra
// fields, compression level) would each make the bytes depend on the machine.
// Format: PKWARE APPNOTE 6.3.x, sections 4.3.7 (local header), 4.3.12 (central
// directory) and 4.3.16 (end of central directory); no ZIP64, so < 65535 entries of < 4 GiB.

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (ISO-HDLC, the zip and PNG one). */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** The fixed entry time, as MS-DOS date and time fields (no time zone involved). */
export const ZIP_TIME = { year: 2026, month: 10, day: 6, hour: 0, minute: 0, second: 0 } as const;
const DOS_DATE = ((ZIP_TIME.year - 1980) << 9) | (ZIP_TIME.month << 5) | ZIP_TIME.day;
const DOS_TIME = (ZIP_TIME.hour << 11) | (ZIP_TIME.minute << 5) | (ZIP_TIME.second >> 1);
const VERSION = 20;
const MADE_BY_UNIX = (3 << 8) | VERSION;
const UTF8_NAMES = 1 << 11;
const MODE_0644 = (0o100644 << 16) >>> 0;

export interface ZipEntry {
  name: string;
  bytes: Uint8Array;
}

export function storedZip(entries: readonly ZipEntry[]): Uint8Array {
  const sorted = [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of sorted) {
    const name = Buffer.from(entry.name, 'utf8');
    const crc = crc32(entry.bytes);
    const size = entry.bytes.byteLength;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(VERSION, 4);
    local.writeUInt16LE(UTF8_NAMES, 6);
    local.writeUInt16LE(0, 8); // stored
    local.writeUInt16LE(DOS_TIME, 10);
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(size, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    parts.push(local, name, Buffer.from(entry.bytes));

    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(MADE_BY_UNIX, 4);
    header.writeUInt16LE(VERSION, 6);
    header.writeUInt16LE(UTF8_NAMES, 8);
    header.writeUInt16LE(0, 10);
    header.writeUInt16LE(DOS_TIME, 12);
    header.writeUInt16LE(DOS_DATE, 14);
    header.writeUInt32LE(crc, 16);
    header.writeUInt32LE(size, 20);
    header.writeUInt32LE(size, 24);
    header.writeUInt16LE(name.length, 28);
    // extra length, comment length, disk number, internal attributes: all 0
    header.writeUInt32LE(MODE_0644, 38);
    header.writeUInt32LE(offset, 42);
    central.push(header, name);
    offset += local.length + name.length + size;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(sorted.length, 8);
  end.writeUInt16LE(sorted.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...parts, directory, end]));
}
