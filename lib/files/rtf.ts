/**
 * The text of an RTF document: a small control-word reader, not a renderer. It keeps the body's
 * characters (with `\'hh` in the document's code page and `\uN` Unicode escapes), turns
 * paragraph, line, cell and tab marks into line breaks and tabs, and drops every destination that
 * is not body text (font and colour tables, styles, document info, pictures, objects, field
 * instructions, and every `{\*…}` group). Linear in the input, no recursion, and it stops once
 * `maxChars` characters are out.
 */

/** Destinations whose content is not text a reader sees. */
const SKIP = new Set([
  'fonttbl',
  'colortbl',
  'stylesheet',
  'info',
  'pict',
  'object',
  'objdata',
  'fldinst',
  'themedata',
  'colorschememapping',
  'latentstyles',
  'datastore',
  'xmlnstbl',
  'listtable',
  'listoverridetable',
  'rsidtbl',
  'generator',
  'filetbl',
  'revtbl',
  'header',
  'headerl',
  'headerr',
  'headerf',
  'footer',
  'footerl',
  'footerr',
  'footerf',
  'bkmkstart',
  'bkmkend',
  'shppict',
  'nonshppict',
  'userprops',
]);

const WORDS: Record<string, string> = {
  par: '\n',
  line: '\n',
  sect: '\n',
  page: '\n',
  row: '\n',
  cell: '\t',
  tab: '\t',
  emdash: '\u2014',
  endash: '\u2013',
  bullet: '\u2022',
  lquote: '\u2018',
  rquote: '\u2019',
  ldblquote: '\u201c',
  rdblquote: '\u201d',
  emspace: ' ',
  enspace: ' ',
};

interface Group {
  skip: boolean;
  /** How many characters follow a `\uN` as its fallback (`\ucN`). */
  uc: number;
}

const decoderFor = (codepage: number) => {
  try {
    return new TextDecoder(`windows-${codepage}`);
  } catch {
    return new TextDecoder('windows-1252');
  }
};

export function rtfToText(rtf: string, maxChars = Number.POSITIVE_INFINITY): string {
  let out = '';
  let decoder = decoderFor(1252);
  const stack: Group[] = [];
  let group: Group = { skip: false, uc: 1 };
  /** Fallback characters still to drop after a `\uN`. */
  let pendingSkip = 0;
  const emit = (s: string) => {
    if (group.skip) return;
    if (pendingSkip > 0) {
      const dropped = Math.min(pendingSkip, s.length);
      pendingSkip -= dropped;
      s = s.slice(dropped);
    }
    out += s;
  };

  let i = 0;
  const n = rtf.length;
  while (i < n && out.length < maxChars) {
    const c = rtf[i]!;
    if (c === '{') {
      stack.push(group);
      group = { ...group };
      i++;
      // `{\*\dest …}`: an ignorable destination; skipped whole.
      if (rtf.startsWith('\\*', i)) group.skip = true;
      continue;
    }
    if (c === '}') {
      group = stack.pop() ?? { skip: false, uc: 1 };
      pendingSkip = 0;
      i++;
      continue;
    }
    if (c === '\r' || c === '\n') {
      i++;
      continue;
    }
    if (c !== '\\') {
      let j = i;
      while (j < n && !'\\{}\r\n'.includes(rtf[j]!)) j++;
      emit(rtf.slice(i, j));
      i = j;
      continue;
    }
    // A control word, a control symbol or a hex escape.
    const next = rtf[i + 1];
    if (next === undefined) break;
    if (next === "'") {
      const hex = rtf.slice(i + 2, i + 4);
      i += 4;
      if (/^[0-9a-fA-F]{2}$/.test(hex)) emit(decoder.decode(Uint8Array.of(Number.parseInt(hex, 16))));
      continue;
    }
    if (!/[a-zA-Z]/.test(next)) {
      i += 2;
      if (next === '\\' || next === '{' || next === '}') emit(next);
      else if (next === '~') emit('\u00a0');
      else if (next === '_') emit('-');
      else if (next === '\n' || next === '\r') emit('\n');
      continue;
    }
    const m = /^([a-zA-Z]{1,32})(-?\d{1,10})? ?/.exec(rtf.slice(i + 1, i + 1 + 45));
    if (!m) {
      i += 2;
      continue;
    }
    i += 1 + m[0].length;
    const word = m[1]!;
    const param = m[2] === undefined ? undefined : Number(m[2]);
    if (SKIP.has(word)) {
      group.skip = true;
      continue;
    }
    // A fallback is the characters right after `\uN`; a control word ends it.
    pendingSkip = 0;
    if (word === 'ansicpg' && param !== undefined) decoder = decoderFor(param);
    else if (word === 'uc' && param !== undefined) group.uc = Math.max(0, Math.min(param, 10));
    else if (word === 'u' && param !== undefined) {
      const code = param < 0 ? param + 65536 : param;
      emit(String.fromCharCode(code));
      pendingSkip = group.uc;
    } else if (word in WORDS) emit(WORDS[word]!);
  }
  return out.slice(0, maxChars);
}
