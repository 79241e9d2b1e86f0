/**
 * A zip's central directory, read without inflating anything: how DOCX and ODT files are told
 * apart from other archives and checked for zip bombs before any parser sees them. Also a bounded
 * reader of one entry, for the few small entries the checks and the ODT reader need.
 *
 * Only what office files use is accepted: one disk, no ZIP64 (a DOCX or ODT of at most 20 MB
 * never needs it, and a zip bomb uses it to declare sizes past 4 GB), no encryption, entries
 * stored or deflated.
 */
import { inflateRawSync } from 'node:zlib';
import { ARCHIVE_LIMITS } from './limits';

export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated. */
  method: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
  encrypted: boolean;
}

export type ZipDirectory =
  | { ok: true; entries: ZipEntry[] }
  | { ok: false; reason: 'not_a_zip' | 'malformed' | 'unsupported' | 'too_large' };

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const ZIP64_LOCATOR = 0x07064b50;

export const looksLikeZip = (b: Uint8Array) => b.length >= 4 && b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04;

const view = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);

/** The central directory's entries, or why there are none to trust. Never inflates. */
export function readZipDirectory(bytes: Uint8Array): ZipDirectory {
  if (!looksLikeZip(bytes)) return { ok: false, reason: 'not_a_zip' };
  const dv = view(bytes);
  // The end record is in the last 22 + 65,535 (comment) bytes; search backwards.
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (dv.getUint32(i, true) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return { ok: false, reason: 'malformed' };
  if (eocd >= 20 && dv.getUint32(eocd - 20, true) === ZIP64_LOCATOR) return { ok: false, reason: 'unsupported' };
  const disk = dv.getUint16(eocd + 4, true);
  const cdDisk = dv.getUint16(eocd + 6, true);
  const count = dv.getUint16(eocd + 10, true);
  const cdSize = dv.getUint32(eocd + 12, true);
  const cdOffset = dv.getUint32(eocd + 16, true);
  if (disk !== 0 || cdDisk !== 0) return { ok: false, reason: 'unsupported' };
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) return { ok: false, reason: 'unsupported' };
  if (count > ARCHIVE_LIMITS.maxEntries) return { ok: false, reason: 'too_large' };
  if (cdOffset + cdSize > eocd) return { ok: false, reason: 'malformed' };

  const entries: ZipEntry[] = [];
  let p = cdOffset;
  for (let n = 0; n < count; n++) {
    if (p + 46 > eocd || dv.getUint32(p, true) !== CENTRAL) return { ok: false, reason: 'malformed' };
    const flags = dv.getUint16(p + 8, true);
    const method = dv.getUint16(p + 10, true);
    const compressedSize = dv.getUint32(p + 20, true);
    const uncompressedSize = dv.getUint32(p + 24, true);
    const nameLength = dv.getUint16(p + 28, true);
    const extraLength = dv.getUint16(p + 30, true);
    const commentLength = dv.getUint16(p + 32, true);
    const localHeaderOffset = dv.getUint32(p + 42, true);
    if (compressedSize === 0xffffffff || uncompressedSize === 0xffffffff || localHeaderOffset === 0xffffffff) {
      return { ok: false, reason: 'unsupported' };
    }
    const end = p + 46 + nameLength + extraLength + commentLength;
    if (end > eocd) return { ok: false, reason: 'malformed' };
    const name = new TextDecoder().decode(bytes.subarray(p + 46, p + 46 + nameLength));
    if (localHeaderOffset + 30 > cdOffset || localHeaderOffset + compressedSize > cdOffset) return { ok: false, reason: 'malformed' };
    entries.push({ name, method, compressedSize, uncompressedSize, localHeaderOffset, encrypted: (flags & 1) === 1 });
    p = end;
  }
  return { ok: true, entries };
}

/**
 * Why an archive's declared contents are too much, or undefined when they are within
 * ARCHIVE_LIMITS: the total and each entry's uncompressed size, and each entry's ratio. Entries
 * sharing one local header (the overlapping-file bomb) count as too much as well.
 */
export function archiveTooLarge(entries: readonly ZipEntry[]): string | undefined {
  let total = 0;
  const offsets = new Set<number>();
  for (const e of entries) {
    total += e.uncompressedSize;
    if (e.uncompressedSize > ARCHIVE_LIMITS.maxEntryBytes) return 'an entry expands past the limit';
    if (e.compressedSize >= 1024 && e.uncompressedSize / e.compressedSize > ARCHIVE_LIMITS.maxRatio) return 'an entry expands too far';
    if (e.compressedSize < 1024 && e.uncompressedSize > 1024 * ARCHIVE_LIMITS.maxRatio) return 'an entry expands too far';
    if (offsets.has(e.localHeaderOffset)) return 'entries overlap';
    offsets.add(e.localHeaderOffset);
  }
  if (total > ARCHIVE_LIMITS.maxTotalBytes) return 'the entries together expand past the limit';
  return undefined;
}

/**
 * One entry's bytes, inflated with its declared size as a hard bound: an entry that lies about
 * its size stops at the bound (a RangeError) instead of filling memory. Undefined for an entry
 * that is encrypted or uses a method other than stored or deflate.
 */
export function readZipEntry(bytes: Uint8Array, entry: ZipEntry): Uint8Array | undefined {
  if (entry.encrypted || (entry.method !== 0 && entry.method !== 8)) return undefined;
  const dv = view(bytes);
  const at = entry.localHeaderOffset;
  if (dv.getUint32(at, true) !== LOCAL) throw new Error('zip: a local header is missing');
  const start = at + 30 + dv.getUint16(at + 26, true) + dv.getUint16(at + 28, true);
  const data = bytes.subarray(start, start + entry.compressedSize);
  if (data.length !== entry.compressedSize) throw new Error('zip: an entry is cut short');
  if (entry.method === 0) {
    if (entry.compressedSize !== entry.uncompressedSize) throw new Error('zip: a stored entry has two sizes');
    return data;
  }
  const out = inflateRawSync(data, { maxOutputLength: Math.max(1, entry.uncompressedSize) });
  if (out.length !== entry.uncompressedSize) throw new Error('zip: an entry is not the size it declares');
  return out;
}

/**
 * Every entry inflates to exactly the size it declares, checked one at a time with that size as
 * the bound (never more than ARCHIVE_LIMITS.maxEntryBytes in memory): what a parser that trusts
 * the directory (mammoth's zip reader) is given only after this passed.
 */
export function entriesHonest(bytes: Uint8Array, entries: readonly ZipEntry[]): boolean {
  try {
    for (const e of entries) if (readZipEntry(bytes, e) === undefined) return false;
    return true;
  } catch {
    return false;
  }
}
