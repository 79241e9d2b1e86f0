/**
 * The byte check: a file's first bytes (and, for office files, its directory) decide what it is,
 * never its name or its declared type. `file-type` recognises PDF, PNG and JPEG and names most
 * of what is refused (executables, archives, media); the rest is done here, because it does not
 * tell a Word document from an installer (both OLE2), a DOCX from a zip of anything, or a text
 * file from HTML (it answers nothing for text).
 *
 * Loads `file-type`: imported by the file worker only, never by a route handler
 * (test/unit/files/bundle-boundary.test.ts).
 */
import { fileTypeFromBuffer } from 'file-type';
import { type AllowedContentType, type FileRefusalCode, MAX_UPLOAD_BYTES } from './limits';
import { looksLikeOle2, ole2Kind } from './ole2';
import { archiveTooLarge, looksLikeZip, readZipDirectory, readZipEntry, type ZipEntry } from './zip';

export type Inspection = { ok: true; contentType: AllowedContentType } | { ok: false; code: FileRefusalCode; reason: string };

const refuse = (code: FileRefusalCode, reason: string): Inspection => ({ ok: false, code, reason });
const notAllowed = (reason: string) => refuse('file_type_not_allowed', reason);

/** What file-type may answer for an allowed file; anything else it names is refused. */
const FROM_FILE_TYPE = new Set<AllowedContentType>(['application/pdf', 'image/png', 'image/jpeg']);

const ODT = 'application/vnd.oasis.opendocument.text';
const DOCX_MAIN = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml';

/** What a whole file is, by its bytes, or why it is refused. */
export async function inspectFile(bytes: Uint8Array): Promise<Inspection> {
  if (bytes.length === 0) return refuse('file_empty', 'the file is empty');
  if (bytes.length > MAX_UPLOAD_BYTES) return refuse('file_too_large', 'the file is larger than allowed');
  if (looksLikeZip(bytes)) return inspectZip(bytes);
  if (looksLikeOle2(bytes)) {
    const kind = ole2Kind(bytes);
    if (kind === 'word') return { ok: true, contentType: 'application/msword' };
    return notAllowed(kind === 'word_with_macros' ? 'a Word document with macros' : 'a compound file that is not a Word document');
  }
  if (startsWithAscii(bytes, '{\\rtf')) return inspectRtf(bytes);
  const found = await fileTypeFromBuffer(bytes);
  if (found) {
    return FROM_FILE_TYPE.has(found.mime as AllowedContentType)
      ? { ok: true, contentType: found.mime as AllowedContentType }
      : notAllowed(`the bytes are ${found.ext}`);
  }
  return inspectText(bytes);
}

const startsWithAscii = (b: Uint8Array, s: string) => b.length >= s.length && [...s].every((c, i) => b[i] === c.charCodeAt(0));

/**
 * RTF is text, but it can carry embedded OLE objects (`\object`, `\objdata`): the way exploit
 * documents deliver executables. Those are refused; plain formatted text passes.
 */
function inspectRtf(bytes: Uint8Array): Inspection {
  const text = new TextDecoder('latin1').decode(bytes);
  if (/\\obj(?:data|ect|emb|link|autlink|class)\b/.test(text)) return notAllowed('an RTF document with embedded objects');
  return { ok: true, contentType: 'application/rtf' };
}

/**
 * DOCX and ODT are zips. Decided from the central directory and two small entries, never by
 * inflating the document: the declared sizes refuse a zip bomb first (ARCHIVE_LIMITS).
 */
function inspectZip(bytes: Uint8Array): Inspection {
  const dir = readZipDirectory(bytes);
  if (!dir.ok)
    return dir.reason === 'too_large' ? refuse('archive_too_large', 'too many entries') : notAllowed(`a zip that is ${dir.reason}`);
  const tooLarge = archiveTooLarge(dir.entries);
  if (tooLarge) return refuse('archive_too_large', tooLarge);
  if (dir.entries.some((e) => e.encrypted)) return notAllowed('an encrypted archive');
  const byName = new Map(dir.entries.map((e) => [e.name, e]));
  const small = (e: ZipEntry | undefined) => (e && e.uncompressedSize <= 256 * 1024 ? readZipEntry(bytes, e) : undefined);
  try {
    // ODF: the first entry is `mimetype`, stored, holding the media type (ODF 1.2 part 3, 3.3).
    const first = dir.entries[0];
    if (first?.name === 'mimetype' && first.method === 0) {
      const mimetype = new TextDecoder().decode(small(first));
      if (mimetype === ODT && byName.has('content.xml')) return { ok: true, contentType: ODT };
      return notAllowed('an OpenDocument file that is not text');
    }
    const types = small(byName.get('[Content_Types].xml'));
    if (types && byName.has('word/document.xml')) {
      const xml = new TextDecoder().decode(types);
      const macros = /macroEnabled/i.test(xml) || dir.entries.some((e) => /vbaProject\.bin$/i.test(e.name));
      if (macros) return notAllowed('a Word document with macros');
      if (xml.includes(DOCX_MAIN))
        return { ok: true, contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' };
    }
  } catch {
    return notAllowed('a damaged archive');
  }
  return notAllowed('an archive');
}

/**
 * What browsers would render or a shell would run: markup (HTML, SVG, XML with its prolog) at
 * the start or any of the tags that carry script within the first 64 KB, and interpreter lines
 * (`#!`, PHP, batch).
 */
const MARKUP_START = /^\s*<(?:[a-z!?])/i;
const ACTIVE_TAGS = /<\s*(?:html|head|body|script|svg|iframe|object|embed|meta|link|style|form|img|a\s+href|!doctype|\?xml)\b/i;
const INTERPRETER_START = /^\s*(?:#!|<\?php|@echo\s+off)/i;

/**
 * Plain text: valid UTF-8 (a BOM allowed), without NUL or other control characters besides
 * tab, line breaks and form feed, and neither markup nor a script.
 */
function inspectText(bytes: Uint8Array): Inspection {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return notAllowed('binary data of an unknown type');
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this looks for
  if (/[\u0000-\u0008\u000e-\u001f\u007f]/.test(text)) return notAllowed('binary data of an unknown type');
  const head = text.slice(0, 64 * 1024);
  if (MARKUP_START.test(head) || ACTIVE_TAGS.test(head)) return notAllowed('markup (HTML, SVG or XML)');
  if (INTERPRETER_START.test(head)) return notAllowed('a script');
  return { ok: true, contentType: 'text/plain' };
}
