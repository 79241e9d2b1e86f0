/**
 * Mapping another tool's export onto the import's columns, in the browser before anything is
 * sent: each of the file's columns is used as one of ours or ignored; a first and a last name
 * become one name, a requisition is found by its title and a stage by its label. The result is
 * a CSV in the import's own columns with every row at its number in the original file (a blank
 * line where the original had one), so the rows the server reports are the rows of the file
 * the recruiter chose.
 */
import { csvLine } from '../../lib/csv';
import { STAGES } from '../../lib/model';
import { COLUMNS, type ImportFile } from './import-file';
import { STAGE_LABELS } from './labels';

export const USES = {
  '': 'Ignore',
  name: 'Name',
  first_name: 'First name',
  last_name: 'Last name',
  email: 'Email',
  phone: 'Phone',
  resume_url: 'Resume URL',
  req_title: 'Requisition, by its title',
  req_id: 'Requisition id',
  stage_label: 'Stage, by its label',
} as const;
export type Use = keyof typeof USES;

/** The template CSV: the import's columns, nothing else. */
export const TEMPLATE_CSV = csvLine(COLUMNS);

const norm = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

const GUESSES: [RegExp, Use][] = [
  [/^(first|given)( name)?$|^firstname$|^vorname$|^prenom$/, 'first_name'],
  [/^(last|family)( name)?$|^lastname$|^surname$|^nachname$|^nom$/, 'last_name'],
  [/^(full )?name$|^candidate( name)?$/, 'name'],
  [/^e ?mail( address)?$/, 'email'],
  [/^(phone|mobile|telephone)( number)?$/, 'phone'],
  [/^(resume|cv)( url| link)?$/, 'resume_url'],
  [/^req(uisition)? id$/, 'req_id'],
  [/^(job|position|opening|requisition)( title| name)?$/, 'req_title'],
  [/^(stage|status)( name)?$/, 'stage_label'],
];

/** A first guess from the header: our own column names as they are, the usual names of other tools' columns. */
export function guessUses(header: string[]): Use[] {
  const taken = new Set<Use>();
  return header.map((h) => {
    const n = norm(h);
    const own = (COLUMNS as readonly string[]).includes(n.replace(/ /g, '_')) ? (n.replace(/ /g, '_') as Use) : undefined;
    const use = own === ('stage' as Use) ? 'stage_label' : (own ?? GUESSES.find(([re]) => re.test(n))?.[1] ?? '');
    if (!use || taken.has(use)) return '';
    taken.add(use);
    return use;
  });
}

/** Why a mapping cannot be used yet, or undefined. */
export function mappingProblem(uses: Use[]): string | undefined {
  const has = (u: Use) => uses.includes(u);
  const twice = uses.find((u, i) => u && uses.indexOf(u) !== i);
  if (twice) return `Two columns are used as “${USES[twice]}”: choose one.`;
  if (has('name') && (has('first_name') || has('last_name')))
    return 'Use a column as Name, or columns as First name and Last name, not both.';
  if (!has('name') && !has('first_name') && !has('last_name'))
    return 'Choose the column with the name (or the first and last names): every candidate needs a name.';
  if (has('req_title') && has('req_id')) return 'Use a column as the requisition’s title or as its id, not both.';
  return undefined;
}

export interface MapContext {
  /** Every requisition: a title names the one requisition of that title, or the one open among several. */
  requisitions: { id: string; title: string; status: string }[];
}

/** The mapped file, what it sends, and the values it could not map (each with how many rows hold it). */
export interface Mapped {
  file: ImportFile;
  text: string;
  unknownTitles: Map<string, number>;
  ambiguousTitles: Map<string, number>;
  unknownStages: Map<string, number>;
}

const stageByLabel = new Map<string, string>([
  ...STAGES.map((s) => [norm(s.replace(/_/g, ' ')), s] as [string, string]),
  ...Object.entries(STAGE_LABELS).map(([s, l]) => [norm(l), s] as [string, string]),
]);

const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);

/**
 * The file in the import's columns. A title or a label that names nothing is kept as written, so
 * the server refuses that row and the page lists it with the rows not imported.
 */
export function applyMapping(src: ImportFile, uses: Use[], ctx: MapContext): Mapped {
  const cols = COLUMNS.filter((c) => {
    if (c === 'name') return true;
    if (c === 'req_id') return uses.includes('req_id') || uses.includes('req_title');
    if (c === 'stage') return uses.includes('stage_label');
    return uses.includes(c as Use);
  });
  const byTitle = new Map<string, MapContext['requisitions']>();
  for (const r of ctx.requisitions) byTitle.set(norm(r.title), [...(byTitle.get(norm(r.title)) ?? []), r]);
  const unknownTitles = new Map<string, number>();
  const ambiguousTitles = new Map<string, number>();
  const unknownStages = new Map<string, number>();
  const cell = (cells: string[], use: Use) => {
    const i = uses.indexOf(use);
    return i < 0 ? '' : (cells[i] ?? '').trim();
  };
  const rows = src.rows.map(({ row, cells }) => {
    const out: Record<string, string> = {};
    out.name = uses.includes('name')
      ? cell(cells, 'name')
      : [cell(cells, 'first_name'), cell(cells, 'last_name')].filter(Boolean).join(' ');
    for (const c of ['email', 'phone', 'resume_url', 'req_id'] as const) if (uses.includes(c)) out[c] = cell(cells, c);
    const title = cell(cells, 'req_title');
    if (title) {
      const all = byTitle.get(norm(title)) ?? [];
      const open = all.filter((r) => r.status === 'open');
      const one = all.length === 1 ? all[0] : open.length === 1 ? open[0] : undefined;
      if (one) out.req_id = one.id;
      else {
        bump(all.length ? ambiguousTitles : unknownTitles, title);
        out.req_id = title;
      }
    }
    const label = cell(cells, 'stage_label');
    if (label) {
      const stage = stageByLabel.get(norm(label));
      if (!stage) bump(unknownStages, label);
      out.stage = stage ?? label;
    }
    return { row, cells: cols.map((c) => out[c] ?? '') };
  });
  // Row n of the original is row n here: a blank line stands for each blank (or header-only) line.
  let text = csvLine(cols);
  let at = 2;
  for (const r of rows) {
    for (; at < r.row; at++) text += '\r\n';
    text += csvLine(r.cells);
    at++;
  }
  return { file: { header: cols, rows }, text, unknownTitles, ambiguousTitles, unknownStages };
}
