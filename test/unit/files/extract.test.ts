/**
 * Text extraction (lib/files/extract.ts) from real files of each type, bounded output, and the
 * zips that are refused before a parser sees them.
 */
import { describe, expect, it } from 'vitest';
import { boundText, extractText, MAMMOTH_MAX_XML_BYTES, odfXmlToText, wordXmlToText } from '../../../lib/files/extract';
import { MAX_TEXT_BYTES } from '../../../lib/files/limits';
import * as f from '../../helpers/file-fixtures';

const expectCv = (text: string) => {
  for (const line of f.CV_LINES) expect(text).toContain(line);
};

describe('extractText', () => {
  it('PDF (two pages, in order)', async () => {
    const r = await extractText(f.pdf([f.CV_LINES.slice(0, 3), f.CV_LINES.slice(3)]), 'application/pdf');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expectCv(r.text);
    expect(r.text.indexOf('Ada Lovelace')).toBeLessThan(r.text.indexOf('Skills'));
    expect(r.truncated).toBe(false);
  });

  it('DOCX', async () => {
    const r = await extractText(f.docx(), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(r.ok && r.text).toBeTruthy();
    if (r.ok) expectCv(r.text);
  });

  it('ODT, RTF and TXT', async () => {
    for (const [bytes, type] of [
      [f.odt(), 'application/vnd.oasis.opendocument.text'],
      [f.rtf(), 'application/rtf'],
      [f.txt(), 'text/plain'],
    ] as const) {
      const r = await extractText(bytes, type);
      expect(r.ok, type).toBe(true);
      if (r.ok) expectCv(r.text);
    }
  });

  it('RTF: the font table, colour table, document info and ignorable groups are not text', async () => {
    const r = await extractText(f.rtf(), 'application/rtf');
    expect(r.ok && r.text).not.toMatch(/Helvetica|Secret Author|Test;/);
  });

  it('images and DOC have no text to extract', async () => {
    expect(await extractText(f.png(), 'image/png')).toEqual({ ok: true, text: '', truncated: false });
    expect(await extractText(f.ole2(), 'application/msword')).toEqual({ ok: true, text: '', truncated: false });
  });

  it('a DOCX whose entries lie about their size is refused before mammoth reads it', async () => {
    expect(await extractText(f.lyingDocx(), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document')).toMatchObject({
      ok: false,
      code: 'archive_too_large',
    });
    expect(await extractText(f.zipBombDocx(), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document')).toMatchObject({
      ok: false,
      code: 'archive_too_large',
    });
  });

  it('a damaged PDF is unreadable, and the answer quotes nothing of it', async () => {
    const damaged = new TextEncoder().encode('%PDF-1.4\nAda Lovelace secret text, no objects at all\n');
    const r = await extractText(damaged, 'application/pdf');
    expect(r.ok).toBe(false);
    expect(JSON.stringify(r)).not.toContain('Lovelace');
  });

  it('the output is bounded: a long text file is cut at MAX_TEXT_BYTES, at a character boundary', async () => {
    const long = new TextEncoder().encode('é'.repeat(MAX_TEXT_BYTES));
    const r = await extractText(long, 'text/plain');
    expect(r.ok && r.truncated).toBe(true);
    if (!r.ok) return;
    expect(Buffer.byteLength(r.text)).toBeLessThanOrEqual(MAX_TEXT_BYTES);
    expect(r.text).not.toContain('\ufffd');
  });
});

describe('a DOCX too large for mammoth', () => {
  it('is read in one pass instead (mammoth would build a tree of the whole part), bounded like the rest', async () => {
    const line = 'Loops, punched cards and Bernoulli numbers, page after page';
    const lines = ['Ada Lovelace', ...Array.from({ length: Math.ceil(MAMMOTH_MAX_XML_BYTES / 100) + 10 }, (_, i) => `${i} ${line}`)];
    const big = f.docx(lines);
    const r = await extractText(big, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.text.startsWith('Ada Lovelace\n0 Loops')).toBe(true);
    expect(r.truncated).toBe(true);
    expect(Buffer.byteLength(r.text)).toBeLessThanOrEqual(MAX_TEXT_BYTES);
  });

  it('wordXmlToText keeps runs, tabs and breaks, a line per paragraph, and skips deleted text and field codes', () => {
    const xml =
      '<w:document><w:body><w:p><w:r><w:t>A</w:t></w:r><w:r><w:tab/><w:t xml:space="preserve">B &amp; C</w:t><w:br/><w:t>D</w:t></w:r></w:p><w:p><w:r><w:instrText>HYPERLINK x</w:instrText><w:delText>gone</w:delText><w:t>E</w:t></w:r></w:p></w:body></w:document>';
    expect(wordXmlToText(xml)).toBe('A\tB & C\nD\nE\n');
    expect(wordXmlToText(xml, 3)).toBe('A\tB & C');
  });
});

describe('boundText', () => {
  it('keeps short text whole and never splits a character', () => {
    expect(boundText('abc', 10)).toEqual({ text: 'abc', truncated: false });
    expect(boundText('aé€😀', 6)).toEqual({ text: 'aé€', truncated: true });
    expect(boundText('aé€😀', 5)).toEqual({ text: 'aé', truncated: true });
  });
});

describe('odfXmlToText', () => {
  it('keeps paragraphs, tabs, spaces and entities; drops annotations and markup', () => {
    const xml =
      '<office:document-content><office:body><office:text><text:h>Title</text:h><text:p>A<text:tab/>B<text:s text:c="3"/>C &amp; D &#233;</text:p><text:p>x<office:annotation><text:p>note</text:p></office:annotation>y</text:p></office:text></office:body></office:document-content>';
    expect(odfXmlToText(xml)).toBe('Title\nA\tB   C & D é\nxy\n');
  });
});
