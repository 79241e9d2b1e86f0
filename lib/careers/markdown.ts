/**
 * The careers page's Markdown: a small, safe subset rendered to HTML. Everything is escaped first
 * and only the markup below is produced, so no tag, attribute or script of the writer's survives;
 * links keep only http(s) and mailto targets. A full renderer plus an HTML sanitizer would add
 * far more to these functions' bundles than a job description needs.
 *
 * Blocks: paragraphs, `#`..`######` headings (shifted below the page's own h1), `-`/`*`/`+` and
 * `1.` lists, `>` quotes, fenced code, `---` rules. Inline: `**strong**`, `*em*`/`_em_`,
 * `` `code` ``, `[text](url)`.
 */

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESC[c]!);
const UNESC = Object.fromEntries(Object.entries(ESC).map(([k, v]) => [v, k]));
const unescapeHtml = (s: string) => s.replace(/&(amp|lt|gt|quot|#39);/g, (m) => UNESC[m]!);

/** A link target kept as written, or undefined (javascript:, data:, relative tricks...). */
function safeHref(raw: string): string | undefined {
  const url = raw.trim();
  return /^(https?:\/\/|mailto:)\S+$/i.test(url) ? url : undefined;
}

/** Inline markup on one escaped line of text. */
function inline(text: string): string {
  const codes: string[] = [];
  // Code spans first: nothing inside them is markup.
  let s = escapeHtml(text.replace(/\uE000/g, '')).replace(/`([^`]+)`/g, (_, c: string) => `\uE000${codes.push(c) - 1}\uE000`);
  s = s.replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_whole, label: string, href: string) => {
    // The href is escaped already: unescaped to check its scheme, then written escaped again.
    const target = safeHref(unescapeHtml(href));
    return target ? `<a href="${escapeHtml(target)}" rel="nofollow noopener">${label}</a>` : label;
  });
  s = s.replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>').replace(/__([^_]+)__/g, '<strong>$1</strong>');
  s = s.replace(/(^|[^*])\*([^*\s][^*]*)\*/g, '$1<em>$2</em>').replace(/(^|\W)_([^_\s][^_]*)_(?=\W|$)/g, '$1<em>$2</em>');
  return s.replace(/\uE000(\d+)\uE000/g, (_, i: string) => `<code>${codes[Number(i)]}</code>`);
}

const LIST_ITEM = /^\s{0,3}([-*+]|\d{1,9}[.)])\s+(.*)$/;

/**
 * The description as HTML; `headingBase` is the level a `#` heading becomes (at most h6). A heading
 * never goes more than one level below the one before it (the first: below the page's own), so a
 * description that starts at `###` still reads as an outline to a screen reader.
 */
export function renderMarkdown(md: string, headingBase = 2): string {
  const lines = md.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  let i = 0;
  let above = headingBase - 1;
  while (i < lines.length) {
    const line = lines[i]!;
    if (!line.trim()) {
      i++;
      continue;
    }
    if (/^\s{0,3}```/.test(line)) {
      const body: string[] = [];
      for (i++; i < lines.length && !/^\s{0,3}```/.test(lines[i]!); i++) body.push(lines[i]!);
      i++;
      out.push(`<pre><code>${escapeHtml(body.join('\n'))}</code></pre>`);
      continue;
    }
    const heading = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const level = Math.min(6, heading[1]!.length + headingBase - 1, above + 1);
      above = level;
      out.push(`<h${level}>${inline(heading[2]!)}</h${level}>`);
      i++;
      continue;
    }
    if (/^\s{0,3}([-*_])(\s*\1){2,}\s*$/.test(line)) {
      out.push('<hr>');
      i++;
      continue;
    }
    if (/^\s{0,3}>/.test(line)) {
      const body: string[] = [];
      for (; i < lines.length && /^\s{0,3}>/.test(lines[i]!); i++) body.push(lines[i]!.replace(/^\s{0,3}>\s?/, ''));
      out.push(`<blockquote>${renderMarkdown(body.join('\n'), headingBase)}</blockquote>`);
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (item) {
      const ordered = /\d/.test(item[1]!);
      const items: string[] = [];
      for (let m = LIST_ITEM.exec(lines[i] ?? ''); m && /\d/.test(m[1]!) === ordered; m = LIST_ITEM.exec(lines[i] ?? '')) {
        let text = m[2]!;
        // Indented lines that follow continue the item.
        for (i++; i < lines.length && /^\s{2,}\S/.test(lines[i]!) && !LIST_ITEM.exec(lines[i]!); i++) text += ` ${lines[i]!.trim()}`;
        items.push(`<li>${inline(text)}</li>`);
      }
      const tag = ordered ? 'ol' : 'ul';
      out.push(`<${tag}>${items.join('')}</${tag}>`);
      continue;
    }
    const para: string[] = [];
    for (; i < lines.length && lines[i]!.trim() && !isBlockStart(lines[i]!); i++) para.push(lines[i]!.trim());
    out.push(`<p>${inline(para.join(' '))}</p>`);
  }
  return out.join('\n');
}

const isBlockStart = (line: string) =>
  /^\s{0,3}(#{1,6}\s|```|>)/.test(line) || LIST_ITEM.test(line) || /^\s{0,3}([-*_])(\s*\1){2,}\s*$/.test(line);
