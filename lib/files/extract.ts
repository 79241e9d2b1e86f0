/**
 * The text of an allowed file, for the console's reader and later search: PDF with `unpdf`
 * (PDF.js, page by page, eval off), DOCX with `mammoth`, ODT from its `content.xml`, RTF with
 * lib/files/rtf.ts, TXT as it is. At most MAX_TEXT_BYTES of UTF-8 come out (cut at a character
 * boundary, and `truncated` says so). The text is personal data: nothing here logs it, and
 * errors carry no part of it.
 *
 * Loads the parsers: imported by the file worker only, never by a route handler
 * (test/unit/files/bundle-boundary.test.ts). Each parser is loaded on first use.
 */
import { type AllowedContentType, MAX_TEXT_BYTES } from './limits';
import { rtfToText } from './rtf';
import { archiveTooLarge, entriesHonest, readZipDirectory, readZipEntry } from './zip';

export type Extraction =
  | { ok: true; text: string; truncated: boolean }
  /** `archive_too_large`: a zip whose entries are not what its directory declares; nothing is read from it. */
  | { ok: false; code: 'archive_too_large' | 'unreadable'; reason: string };

/** Content types that have text to extract (the others are shown, not read). */
export const TEXT_TYPES: ReadonlySet<AllowedContentType> = new Set<AllowedContentType>([
  'application/pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.oasis.opendocument.text',
  'application/rtf',
  'text/plain',
]);

/** Cut `text` to at most `maxBytes` of UTF-8, at a character boundary. */
export function boundText(text: string, maxBytes = MAX_TEXT_BYTES): { text: string; truncated: boolean } {
  // Up to 3 bytes per UTF-16 unit (4 per surrogate pair), so short strings need no encoding.
  if (text.length * 3 <= maxBytes) return { text, truncated: false };
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return { text, truncated: false };
  let end = maxBytes;
  // Back to the start of a UTF-8 sequence (continuation bytes are 10xxxxxx).
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return { text: bytes.subarray(0, end).toString('utf8'), truncated: true };
}

/** Blank-line runs and trailing spaces folded, so that the bound is spent on text. */
const tidy = (text: string) =>
  text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t\u00a0]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();

export async function extractText(bytes: Uint8Array, contentType: AllowedContentType): Promise<Extraction> {
  try {
    switch (contentType) {
      case 'application/pdf':
        return done(await pdfText(bytes));
      case 'application/vnd.openxmlformats-officedocument.wordprocessingml.document':
        return await docxText(bytes);
      case 'application/vnd.oasis.opendocument.text':
        return odtText(bytes);
      case 'application/rtf':
        return done(rtfToText(new TextDecoder('latin1').decode(bytes), MAX_TEXT_BYTES));
      case 'text/plain':
        return done(new TextDecoder('utf-8').decode(bytes));
      default:
        return { ok: true, text: '', truncated: false };
    }
  } catch (err) {
    // The parser's message may quote the document; only its class goes out.
    return { ok: false, code: 'unreadable', reason: `the file could not be read (${(err as Error)?.name ?? 'Error'})` };
  }
}

const done = (text: string): Extraction => ({ ok: true, ...boundText(tidy(text)) });

/** Page by page, stopping once the bound is reached: a 20 MB portfolio is not read to its end for nothing. */
async function pdfText(bytes: Uint8Array): Promise<string> {
  const { getDocumentProxy } = await import('unpdf');
  // PDF.js may transfer (detach) the buffer it is given: hand it a copy, never the caller's bytes.
  const pdf = await getDocumentProxy(new Uint8Array(bytes), {
    isEvalSupported: false,
    disableFontFace: true,
    stopAtErrors: false,
    verbosity: 0,
  });
  try {
    const pages: string[] = [];
    let size = 0;
    for (let n = 1; n <= pdf.numPages && size <= MAX_TEXT_BYTES; n++) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items) {
        if (!('str' in item)) continue;
        text += item.str;
        if (item.hasEOL) text += '\n';
      }
      page.cleanup();
      pages.push(text);
      size += text.length;
    }
    return pages.join('\n\n');
  } finally {
    await pdf.destroy();
  }
}

/**
 * The largest `word/document.xml` mammoth is given. It builds a tree of the whole document:
 * measured, about 50 MB of memory per MB of XML (a 6 MB part peaked at 355 MB). A CV's part is
 * 20-500 KB; past this bound the text is read by wordXmlToText, in one pass over the XML.
 */
export const MAMMOTH_MAX_XML_BYTES = 2 * 1024 * 1024;

/**
 * mammoth's zip reader trusts the directory, so every entry is first inflated one at a time
 * against the size it declares (lib/files/zip.ts entriesHonest): a DOCX that lies is refused
 * before mammoth sees it.
 */
async function docxText(bytes: Uint8Array): Promise<Extraction> {
  const dir = readZipDirectory(bytes);
  if (!dir.ok || archiveTooLarge(dir.entries) || !entriesHonest(bytes, dir.entries)) {
    return { ok: false, code: 'archive_too_large', reason: 'the document does not expand to what it declares' };
  }
  const main = dir.entries.find((e) => e.name === 'word/document.xml');
  if (main && main.uncompressedSize > MAMMOTH_MAX_XML_BYTES) {
    const xml = readZipEntry(bytes, main);
    if (!xml) return { ok: false, code: 'unreadable', reason: 'the document could not be read' };
    return done(wordXmlToText(new TextDecoder().decode(xml), MAX_TEXT_BYTES));
  }
  const mammoth = (await import('mammoth')).default;
  const result = await mammoth.extractRawText({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) });
  return done(result.value);
}

function odtText(bytes: Uint8Array): Extraction {
  const dir = readZipDirectory(bytes);
  const content = dir.ok ? dir.entries.find((e) => e.name === 'content.xml') : undefined;
  if (!dir.ok || !content || archiveTooLarge(dir.entries)) {
    return { ok: false, code: 'archive_too_large', reason: 'the document does not expand to what it declares' };
  }
  let xml: Uint8Array | undefined;
  try {
    xml = readZipEntry(bytes, content);
  } catch {
    return { ok: false, code: 'archive_too_large', reason: 'the document does not expand to what it declares' };
  }
  if (!xml) return { ok: false, code: 'unreadable', reason: 'the document could not be read' };
  return done(odfXmlToText(new TextDecoder().decode(xml)));
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const decodeEntities = (s: string) =>
  s.replace(/&(#x[0-9a-fA-F]{1,6}|#\d{1,7}|lt|gt|amp|quot|apos);/g, (_m, e: string) => {
    if (e[0] !== '#') return ENTITIES[e]!;
    const code = e[1] === 'x' ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1));
    return code <= 0x10ffff ? String.fromCodePoint(code) : '';
  });

/**
 * The text of a WordprocessingML body in one pass, for documents too large for mammoth: the
 * characters of `<w:t>` runs (not deleted text or field instructions), tabs and breaks, a line
 * per paragraph; stops once `maxChars` are out.
 */
export function wordXmlToText(xml: string, maxChars = Number.POSITIVE_INFINITY): string {
  let out = '';
  let inText = false;
  for (const m of xml.matchAll(/<(\/?)w:(t|tab|br|cr|p)\b[^>]*?(\/?)>|([^<]+)/g)) {
    if (m[4] !== undefined) {
      if (inText) out += decodeEntities(m[4]);
    } else {
      const closing = m[1] === '/';
      const selfClosing = m[3] === '/';
      const tag = m[2];
      if (tag === 't') inText = !closing && !selfClosing;
      else if (closing && tag === 'p') out += '\n';
      else if (!closing && tag === 'tab') out += '\t';
      else if (!closing && (tag === 'br' || tag === 'cr')) out += '\n';
    }
    if (out.length >= maxChars) break;
  }
  return out;
}

/** The text of an ODF `content.xml`: paragraphs and headings on their own lines, tabs, spaces and breaks kept. */
export function odfXmlToText(xml: string): string {
  const body = xml.replace(/^[\s\S]*?<office:body\b[^>]*>/, '').replace(/<\/office:body>[\s\S]*$/, '');
  return body
    .replace(/<text:tab\s*\/>/g, '\t')
    .replace(/<text:line-break\s*\/>/g, '\n')
    .replace(/<text:s(?:\s+text:c="(\d{1,4})")?\s*\/>/g, (_m, c: string | undefined) => ' '.repeat(Number(c ?? 1)))
    .replace(/<\/text:(?:p|h)>/g, '\n')
    .replace(/<office:annotation\b[\s\S]*?<\/office:annotation>/g, '')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-fA-F]{1,6}|#\d{1,7}|lt|gt|amp|quot|apos);/g, (m) => decodeEntities(m));
}
