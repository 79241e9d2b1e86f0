/**
 * The byte check (lib/files/sniff.ts): every allowed type is recognised from real files, and
 * every refused kind is refused by its bytes whatever it is called or declared as.
 */
import { describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES } from '../../../lib/files/limits';
import { inspectFile } from '../../../lib/files/sniff';
import * as f from '../../helpers/file-fixtures';

describe('inspectFile: allowed types, by their bytes', () => {
  it.each([
    ['PDF', f.pdf(), 'application/pdf'],
    ['DOCX', f.docx(), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ['ODT', f.odt(), 'application/vnd.oasis.opendocument.text'],
    ['DOC', f.ole2(), 'application/msword'],
    ['RTF', f.rtf(), 'application/rtf'],
    ['TXT', f.txt(), 'text/plain'],
    [
      'TXT with a BOM and accents',
      new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('Zoë Müller\nCV — 2024\n')]),
      'text/plain',
    ],
    ['PNG', f.png(), 'image/png'],
    ['JPEG', f.jpeg(), 'image/jpeg'],
  ])('%s', async (_name, bytes, contentType) => {
    expect(await inspectFile(bytes)).toEqual({ ok: true, contentType });
  });
});

describe('inspectFile: refusals', () => {
  it.each([
    ['an HTML page (uploaded as cv.pdf)', f.html()],
    ['an SVG with a script', f.svgWithScript()],
    ['a Linux executable (ELF)', f.elf()],
    ['a Windows executable (PE)', f.pe()],
    ['a shell script', f.shellScript()],
    ['a zip of anything', f.plainZip()],
    ['a DOCM renamed DOCX', f.docm()],
    ['an ODF file that is not text (a spreadsheet)', f.odt(['a'], 'application/vnd.oasis.opendocument.spreadsheet')],
    ['an OLE2 file that is not Word (Excel)', f.ole2([{ name: 'Workbook' }])],
    ['a Word 97 document with macros', f.ole2([{ name: 'WordDocument' }, { name: 'Macros', type: 1 }])],
    ['an RTF with an embedded object', new TextEncoder().encode('{\\rtf1\\ansi Hello {\\object\\objemb{\\*\\objdata 0102}}}')],
    ['XML with a prolog', new TextEncoder().encode('<?xml version="1.0"?><cv/>')],
    ['text with a NUL', new TextEncoder().encode('Ada\u0000Lovelace')],
    ['Latin-1 bytes that are not UTF-8', Uint8Array.of(0x5a, 0x6f, 0xeb, 0x0a)],
    ['HTML after some text', new TextEncoder().encode('Resume\n\n<img src=x onerror=alert(1)>')],
  ])('%s: file_type_not_allowed', async (_name, bytes) => {
    const r = await inspectFile(bytes);
    expect(r.ok).toBe(false);
    expect(r.ok === false && r.code).toBe('file_type_not_allowed');
  });

  it('a zip-bomb DOCX: archive_too_large, from its directory alone', async () => {
    expect(await inspectFile(f.zipBombDocx())).toMatchObject({ ok: false, code: 'archive_too_large' });
  });

  it('a DOCX whose entries overlap: archive_too_large', async () => {
    expect(await inspectFile(f.overlappingDocx())).toMatchObject({ ok: false, code: 'archive_too_large', reason: 'entries overlap' });
  });

  it('a file over the size: file_too_large; an empty one: file_empty', async () => {
    expect(await inspectFile(f.oversize(MAX_UPLOAD_BYTES))).toMatchObject({ ok: false, code: 'file_too_large' });
    expect(await inspectFile(new Uint8Array(0))).toMatchObject({ ok: false, code: 'file_empty' });
  });

  it('the name never matters: the same HTML bytes are refused, and the same PDF bytes pass, whatever they were called', async () => {
    // The check takes bytes only: there is no name or declared type it could be fooled by.
    expect(inspectFile.length).toBe(1);
    expect(await inspectFile(f.html())).toMatchObject({ ok: false });
    expect(await inspectFile(f.pdf())).toMatchObject({ ok: true });
  });
});
