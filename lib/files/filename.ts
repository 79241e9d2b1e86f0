/**
 * A filename as people gave it, made safe to keep, show and send back in a
 * Content-Disposition header. It is personal data (it often holds the person's name), so it is
 * stored with the file record, never in an object key, and never logged.
 */

/** Characters, not bytes: long enough for any real name, short enough for a header and a list row. */
export const MAX_FILENAME_LENGTH = 120;

/**
 * C0 and C1 controls, DEL, the bidirectional overrides and isolates (they make `cv‮fdp.exe`
 * read as `cvexe.pdf`), zero-width characters and the BOM, and the line and paragraph
 * separators.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2028\u2029\u2060-\u2069\ufeff]/g;
/** Characters that mean something to a file system or a shell quoting a header. */
const RESERVED = /[\\/:*?"<>|]/g;

/** The extension of a name: its last dot-separated part, lower-cased, when it is 1-8 letters or digits. */
export function extensionOf(name: string): string | undefined {
  const m = /\.([A-Za-z0-9]{1,8})$/.exec(name);
  return m ? m[1]!.toLowerCase() : undefined;
}

/**
 * The base name only (no directory, Windows or POSIX), NFC-normalised, without unsafe characters,
 * reserved characters replaced by `_`, runs of spaces folded, no leading dots (no hidden files),
 * at most MAX_FILENAME_LENGTH characters with the extension kept when it is cut. An empty result
 * becomes `file`, keeping the extension.
 */
export function sanitiseFilename(raw: string): string {
  const base = raw.split(/[\\/]/).pop() ?? '';
  let name = base.normalize('NFC').replace(UNSAFE, '').replace(RESERVED, '_').replace(/\s+/g, ' ').trim();
  name = name.replace(/^[.\s]+/, '').replace(/[.\s]+$/, '');
  const ext = extensionOf(name);
  const stem = ext ? name.slice(0, -(ext.length + 1)) : name;
  const suffix = ext ? `.${ext}` : '';
  const chars = [...(stem.trim() || 'file')];
  const room = MAX_FILENAME_LENGTH - suffix.length;
  const cut = chars.length > room ? chars.slice(0, room).join('').trimEnd() : chars.join('');
  return `${cut}${suffix}`;
}

/**
 * The `Content-Disposition: attachment` value for a download: an ASCII fallback and the UTF-8
 * name (RFC 6266 / RFC 5987), so that every browser saves it under its name and none renders it.
 */
export function attachmentDisposition(filename: string): string {
  const safe = sanitiseFilename(filename);
  const ascii = safe
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '_')
    .replace(/[%;\\]/g, '_');
  const encoded = encodeURIComponent(safe).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
