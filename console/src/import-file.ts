/**
 * The import page's file work, apart from the page so it can be tested without a browser: read
 * the chosen CSV with the server's own reader (lib/csv.ts), so the rows the page shows carry the
 * numbers the server reports, and write the rows not imported back as CSV.
 */
import { type CsvRecord, CsvSyntaxError, csvLine, csvTable } from '../../lib/csv';

export const COLUMNS = ['name', 'email', 'phone', 'resume_url', 'req_id', 'stage'];

/** A chosen file as the page keeps it: the header's cells and the rows that are not blank, with their row numbers. */
export interface ImportFile {
  header: string[];
  rows: CsvRecord[];
}

/** Read a chosen file; `problem` is what the page says instead of a preview, when there is one. */
export function readImportCsv(text: string): { file: ImportFile; problem?: string } {
  let table: ReturnType<typeof csvTable>;
  try {
    table = csvTable(text);
  } catch (err) {
    if (!(err instanceof CsvSyntaxError)) throw err;
    return { file: { header: [], rows: [] }, problem: `The file is not valid CSV near line ${err.line}: ${err.why}.` };
  }
  const header = table.header?.cells ?? [];
  const file = { header, rows: table.rows };
  const names = header.map((c) => c.trim().toLowerCase());
  const unknown = header.filter((_, i) => !COLUMNS.includes(names[i]!));
  const problem = !table.header
    ? 'The file is empty: its first row must name the columns.'
    : unknown.length
      ? `Unknown column${unknown.length > 1 ? 's' : ''} ${unknown.map((u) => `“${u}”`).join(', ')}: rename or remove ${unknown.length > 1 ? 'them' : 'it'}. The columns are ${COLUMNS.join(', ')}.`
      : !names.includes('name')
        ? 'The file has no name column: every candidate needs a name.'
        : !table.rows.length
          ? 'The file has a header but no rows.'
          : undefined;
  return { file, ...(problem && { problem }) };
}

/** A row the server did not import: its number in the file and why. */
export interface RowError {
  row: number;
  error: string;
}

/**
 * The file's rows that were not imported, in the server's order, with the reason in an added
 * `error` column. Every cell goes through csvCell (lib/csv.ts): a value that would start a
 * formula reaches the spreadsheet as text.
 */
export function failedRowsCsv(file: ImportFile, errors: readonly RowError[]): string {
  const byRow = new Map(file.rows.map((r) => [r.row, r.cells]));
  let out = csvLine([...file.header, 'error']);
  for (const e of errors) {
    const cells = byRow.get(e.row);
    if (cells) out += csvLine([...cells, ...Array<string>(Math.max(0, file.header.length - cells.length)).fill(''), e.error]);
  }
  return out;
}
