/** The small pure parts of lib/files: limits, keys, filenames, hashing, RTF, suggestions, and the after-landing check. */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { attachmentDisposition, MAX_FILENAME_LENGTH, sanitiseFilename } from '../../../lib/files/filename';
import { sha256Of } from '../../../lib/files/hash';
import { fileKey, isIssuedUploadKey, parseFileKey, parseUploadKey, uploadKey } from '../../../lib/files/keys';
import { ALLOWED_TYPES, allowedType, MAX_UPLOAD_BYTES, UPLOAD_LIMITS, UPLOAD_VALID_SECONDS } from '../../../lib/files/limits';
import { rtfToText } from '../../../lib/files/rtf';
import { suggestFields } from '../../../lib/files/suggest';
import { checkDetected, checkLanded, type IssuedUpload } from '../../../lib/files/verify';

describe('limits', () => {
  it('publishes 20 MB and the eight types, in the shape the limits route answers', () => {
    expect(MAX_UPLOAD_BYTES).toBe(20 * 1024 * 1024);
    expect(UPLOAD_VALID_SECONDS).toBe(600);
    expect(UPLOAD_LIMITS.max_bytes).toBe(20_971_520);
    expect(UPLOAD_LIMITS.types.flatMap((t) => t.extensions)).toEqual(['pdf', 'doc', 'docx', 'odt', 'rtf', 'txt', 'png', 'jpg', 'jpeg']);
    expect(JSON.parse(JSON.stringify(UPLOAD_LIMITS))).toEqual(UPLOAD_LIMITS);
    expect(ALLOWED_TYPES).toHaveLength(8);
  });
  it('allowedType ignores case and parameters, and knows nothing else', () => {
    expect(allowedType('Text/Plain; charset=utf-8')?.content_type).toBe('text/plain');
    expect(allowedType('text/html')).toBeUndefined();
    expect(allowedType('image/svg+xml')).toBeUndefined();
  });
});

describe('keys', () => {
  it('hold ids only, under their prefixes', () => {
    expect(uploadKey('t-1', 'u-2')).toBe('uploads/t-1/u-2');
    expect(fileKey('t-1', 'p-2', 'f-3')).toBe('files/t-1/p-2/f-3');
    expect(parseFileKey('files/t-1/p-2/f-3')).toEqual({ tenantId: 't-1', personId: 'p-2', fileId: 'f-3' });
    expect(parseFileKey('files/t-1/f-3')).toBeUndefined();
    expect(parseUploadKey('uploads/t-1/u-2')).toEqual({ tenantId: 't-1', uploadId: 'u-2' });
  });
  it('refuse anything that could hold a name or climb out of the prefix', () => {
    expect(() => uploadKey('t', 'cv of Ada.pdf')).toThrow();
    expect(() => uploadKey('t', '../x')).toThrow();
    expect(() => fileKey('t/../u', 'p', 'f')).toThrow();
    expect(parseUploadKey('uploads/t/u/extra')).toBeUndefined();
    expect(parseUploadKey('files/t/u')).toBeUndefined();
  });
  it('isIssuedUploadKey: only the exact key of that tenant and upload', () => {
    expect(isIssuedUploadKey('uploads/t/u', 't', 'u')).toBe(true);
    expect(isIssuedUploadKey('uploads/other/u', 't', 'u')).toBe(false);
    expect(isIssuedUploadKey('uploads/t/u2', 't', 'u')).toBe(false);
  });
});

describe('sanitiseFilename', () => {
  it.each([
    ['C:\\Users\\ada\\CV.pdf', 'CV.pdf'],
    ['../../etc/passwd', 'passwd'],
    ['cv\u202Efdp.exe', 'cvfdp.exe'],
    ['re\u0000sume\u0007.docx', 'resume.docx'],
    ['  .hidden.pdf ', 'hidden.pdf'],
    ['a:b*c?"d<e>f|g.txt', 'a_b_c__d_e_f_g.txt'],
    ['', 'file'],
    ['.pdf', 'pdf'],
    ['Zoë\u200B Müller.pdf', 'Zoë Müller.pdf'],
    ['e\u0301.txt', 'é.txt'],
  ])('%j -> %j', (raw, safe) => {
    expect(sanitiseFilename(raw)).toBe(safe);
  });
  it('bounds the length and keeps the extension', () => {
    const name = sanitiseFilename(`${'a'.repeat(500)}.docx`);
    expect([...name]).toHaveLength(MAX_FILENAME_LENGTH);
    expect(name.endsWith('.docx')).toBe(true);
    expect([...sanitiseFilename(`${'😀'.repeat(200)}.pdf`)]).toHaveLength(MAX_FILENAME_LENGTH);
  });
  it('makes a Content-Disposition that saves, never renders, under the UTF-8 name', () => {
    expect(attachmentDisposition('Zoë "CV".pdf')).toBe(`attachment; filename="Zoe _CV_.pdf"; filename*=UTF-8''Zo%C3%AB%20_CV_.pdf`);
  });
});

describe('sha256Of', () => {
  it('hashes a stream chunk by chunk, as one buffer would', async () => {
    const data = Buffer.from('x'.repeat(100_000));
    const chunks = Readable.from([data.subarray(0, 1), data.subarray(1, 70_000), data.subarray(70_000)]);
    expect(await sha256Of(chunks)).toBe(createHash('sha256').update(data).digest('hex'));
  });
});

describe('rtfToText', () => {
  it('decodes hex escapes in the code page, Unicode escapes with their fallbacks, and control symbols', () => {
    expect(rtfToText("{\\rtf1\\ansi\\ansicpg1252 Zo\\'eb \\u8364?uro\\~x\\{y\\}\\par\\tab z}")).toBe('Zoë €uro\u00a0x{y}\n\tz');
    expect(rtfToText('{\\rtf1\\uc1 a\\u-10179?\\u-8704?b}')).toBe('a😀b');
    expect(rtfToText("{\\rtf1\\uc2 \\u8364\\'80\\'80x}")).toBe('€x');
  });
  it('skips destinations that are not body text', () => {
    expect(
      rtfToText(
        '{\\rtf1{\\fonttbl{\\f0 Arial;}}{\\*\\ignored secret}{\\pict 89504e47}{\\field{\\*\\fldinst HYPERLINK x}{\\fldrslt link}} body}',
      ),
    ).toBe('link body');
  });
  it('stops at maxChars and survives unbalanced input', () => {
    expect(rtfToText(`{\\rtf1 ${'a'.repeat(1000)}}`, 10)).toBe('a'.repeat(10));
    expect(rtfToText('{\\rtf1 }}}} x {{{ y')).toBe(' x  y');
  });
});

describe('suggestFields', () => {
  it('finds the emails and phone numbers of a CV, in order, once each', () => {
    const text = `Ada Lovelace\nada.lovelace@example.com | +44 20 7946 0958\nAlt: ADA.LOVELACE@example.com, (020) 7946-0959\nWork 2019-2023, born 1815-12-10\nRef: charles@babbage.example.org.`;
    expect(suggestFields(text)).toEqual({
      emails: ['ada.lovelace@example.com', 'charles@babbage.example.org'],
      phones: ['+44 20 7946 0958', '(020) 7946-0959'],
    });
  });
  it('ignores years, dates, short numbers and long ids', () => {
    expect(suggestFields('2019 - 2023, 15.03.2021, 03/15/2021, room 1234, id 123456789012345678').phones).toEqual([]);
  });
  it('offers at most five of each', () => {
    const many = Array.from({ length: 9 }, (_, i) => `p${i}@example.com +1 555 010 000${i}`).join('\n');
    const s = suggestFields(many);
    expect(s.emails).toHaveLength(5);
    expect(s.phones).toHaveLength(5);
  });
});

describe('checkLanded and checkDetected (the after-landing check)', () => {
  const issued: IssuedUpload = { tenantId: 't', uploadId: 'u', key: 'uploads/t/u', size: 1000, contentType: 'application/pdf' };
  it('passes the object that was issued', () => {
    expect(checkLanded(issued, { size: 1000, contentType: 'application/pdf' })).toEqual({ ok: true });
    expect(checkDetected(issued, 'application/pdf')).toEqual({ ok: true });
  });
  it('catches another size, another type, another key, nothing, and too much', () => {
    expect(checkLanded(issued, { size: 999, contentType: 'application/pdf' })).toMatchObject({ code: 'file_size_mismatch' });
    expect(checkLanded(issued, { size: 1000, contentType: 'text/html' })).toMatchObject({ code: 'file_type_mismatch' });
    expect(checkLanded(issued, { size: 1000, contentType: undefined })).toMatchObject({ code: 'file_type_mismatch' });
    expect(checkLanded({ ...issued, key: 'uploads/other/u' }, { size: 1000, contentType: 'application/pdf' })).toMatchObject({
      code: 'upload_not_found',
    });
    expect(checkLanded(issued, undefined)).toMatchObject({ code: 'upload_not_found' });
    expect(checkLanded(issued, { size: 0, contentType: 'application/pdf' })).toMatchObject({ code: 'file_empty' });
    expect(
      checkLanded({ ...issued, size: MAX_UPLOAD_BYTES + 1 }, { size: MAX_UPLOAD_BYTES + 1, contentType: 'application/pdf' }),
    ).toMatchObject({
      code: 'file_too_large',
    });
    expect(checkDetected(issued, 'image/png')).toMatchObject({ code: 'file_type_mismatch' });
  });
});
