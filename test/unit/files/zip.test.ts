/** lib/files/zip.ts: the central directory read without inflating, the bomb bounds, the bounded entry reader. */
import { describe, expect, it } from 'vitest';
import { ARCHIVE_LIMITS } from '../../../lib/files/limits';
import { inspectFile } from '../../../lib/files/sniff';
import { archiveTooLarge, entriesHonest, readZipDirectory, readZipEntry, type ZipEntry } from '../../../lib/files/zip';
import * as f from '../../helpers/file-fixtures';

const entry = (over: Partial<ZipEntry>): ZipEntry => ({
  name: 'x',
  method: 8,
  compressedSize: 10_000,
  uncompressedSize: 20_000,
  localHeaderOffset: 0,
  encrypted: false,
  ...over,
});

describe('readZipDirectory', () => {
  it('lists a DOCX by its central directory', () => {
    const dir = readZipDirectory(f.docx());
    expect(dir.ok && dir.entries.map((e) => e.name)).toEqual(['[Content_Types].xml', '_rels/.rels', 'word/document.xml']);
  });

  it('refuses what is not a zip, a truncated one and a ZIP64 one', () => {
    expect(readZipDirectory(f.pdf())).toEqual({ ok: false, reason: 'not_a_zip' });
    const docx = f.docx();
    expect(readZipDirectory(docx.subarray(0, docx.length - 30))).toEqual({ ok: false, reason: 'malformed' });
    const zip64 = new Uint8Array(docx.length + 20);
    zip64.set(docx.subarray(0, docx.length - 22));
    new DataView(zip64.buffer).setUint32(docx.length - 22, 0x07064b50, true);
    zip64.set(docx.subarray(docx.length - 22), docx.length - 2);
    expect(readZipDirectory(zip64)).toEqual({ ok: false, reason: 'unsupported' });
  });

  it('decides a zip bomb without inflating anything: its compressed data may as well be garbage', async () => {
    const bomb = f.zipBombDocx();
    const dir = readZipDirectory(bomb);
    if (!dir.ok) throw new Error('expected a directory');
    const big = dir.entries.find((e) => e.name === 'word/media/image1.png')!;
    // Overwrite the entry's deflate stream: inflating it now throws, so any answer but
    // "too large" would show that it had been inflated.
    const dataStart = big.localHeaderOffset + 30 + big.name.length;
    bomb.fill(0xff, dataStart, dataStart + big.compressedSize);
    expect(() => readZipEntry(bomb, big)).toThrow();
    const again = readZipDirectory(bomb);
    expect(again.ok && archiveTooLarge(again.entries)).toBe('an entry expands too far');
    expect(await inspectFile(bomb)).toMatchObject({ ok: false, code: 'archive_too_large' });
  });
});

describe('archiveTooLarge', () => {
  it('passes an ordinary document', () => {
    expect(archiveTooLarge([entry({}), entry({ localHeaderOffset: 10_100 })])).toBeUndefined();
  });
  it('refuses an entry past the bound, a ratio past the bound, a total past the bound, and overlapping entries', () => {
    expect(archiveTooLarge([entry({ compressedSize: 1_000_000, uncompressedSize: ARCHIVE_LIMITS.maxEntryBytes + 1 })])).toMatch(
      /past the limit/,
    );
    expect(archiveTooLarge([entry({ compressedSize: 2_000, uncompressedSize: 2_000 * (ARCHIVE_LIMITS.maxRatio + 1) })])).toMatch(/too far/);
    expect(archiveTooLarge([entry({ compressedSize: 10, uncompressedSize: 1024 * ARCHIVE_LIMITS.maxRatio + 1 })])).toMatch(/too far/);
    const big = (i: number) => entry({ compressedSize: 5_000_000, uncompressedSize: 40_000_000, localHeaderOffset: i * 5_000_100 });
    expect(archiveTooLarge([big(0), big(1), big(2)])).toMatch(/together/);
    expect(archiveTooLarge([entry({}), entry({})])).toBe('entries overlap');
  });
});

describe('readZipEntry and entriesHonest', () => {
  it('reads an entry back', () => {
    const bytes = f.docx(['Hello']);
    const dir = readZipDirectory(bytes);
    const doc = dir.ok ? dir.entries.find((e) => e.name === 'word/document.xml')! : undefined;
    expect(new TextDecoder().decode(readZipEntry(bytes, doc!))).toContain('Hello');
  });

  it('stops an entry that inflates past its declared size at that size (a lying directory)', () => {
    const bytes = f.lyingDocx();
    const dir = readZipDirectory(bytes);
    if (!dir.ok) throw new Error('expected a directory');
    // Honest on its face: 1 KB declared, so the directory check passes...
    expect(archiveTooLarge(dir.entries)).toBeUndefined();
    // ...but inflating is bounded by that 1 KB, and the lie is found.
    const liar = dir.entries.find((e) => e.name === 'word/media/image1.png')!;
    expect(() => readZipEntry(bytes, liar)).toThrow();
    expect(entriesHonest(bytes, dir.entries)).toBe(false);
    const honest = f.docx();
    const honestDir = readZipDirectory(honest);
    expect(honestDir.ok && entriesHonest(honest, honestDir.entries)).toBe(true);
  });
});
