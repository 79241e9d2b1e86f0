/**
 * CSV, read and written the one way both sides use: the import's API function reads uploads with
 * it (lib/imports/parse.ts) and the console bundles it (console/src/import-file.ts) to preview a
 * file, join the server's row errors to it and write the rows not imported. One parser, so a row
 * number the server reports is the row the console shows. No imports: the console's bundle takes
 * this file alone.
 *
 * Row numbers are a spreadsheet's: every record is a row, a blank line included, and a quoted
 * cell spanning lines is still one row. The first record that is not blank is the header.
 */

/** A file that is not CSV; `line` is the line of the file (not the row) where reading stopped. */
export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    readonly why: string,
  ) {
    super(`the file is not valid CSV near line ${line}: ${why}`);
    this.name = 'CsvSyntaxError';
  }
}

/** One record and the row a spreadsheet shows it on (1 for the file's first record). */
export interface CsvRecord {
  row: number;
  cells: string[];
}

/**
 * RFC 4180 records: cells split on commas, `"` quoting (a doubled `""` inside), quoted cells may
 * span lines, CRLF or LF, a leading BOM dropped. Every line is a record, a blank one too (it
 * keeps its row number); a newline that ends the file starts none. Written here rather than taken
 * from a library: the import's API function must stay within the 400 KB bundle budget.
 */
export function csvRecords(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let cells: string[] = [];
  let cell = '';
  // A quoted cell, even an empty one, is a cell: `""` alone on a line is a record of one empty cell.
  let quoted = false;
  let line = 1;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const endRecord = () => {
    cells.push(cell);
    records.push({ row: records.length + 1, cells });
    cells = [];
    cell = '';
    quoted = false;
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"' && cell === '' && !quoted) {
      const started = line;
      quoted = true;
      i++;
      for (;;) {
        if (i >= text.length) throw new CsvSyntaxError(started, 'a quoted cell is never closed');
        const q = text[i]!;
        if (q === '"') {
          if (text[i + 1] === '"') {
            cell += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        if (q === '\n') line++;
        cell += q;
        i++;
      }
      const next = text[i];
      if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r')
        throw new CsvSyntaxError(line, 'a quote inside a quoted cell is not doubled');
      continue;
    }
    if (c === ',') {
      cells.push(cell);
      cell = '';
      quoted = false;
    } else if (c === '\r' && text[i + 1] === '\n') {
      // CRLF: the LF ends the record.
    } else if (c === '\n') {
      endRecord();
      line++;
    } else cell += c;
    i++;
  }
  if (cell !== '' || quoted || cells.length) endRecord();
  return records;
}

/** A record with nothing in it: a blank line, `""`, or the empty cells a spreadsheet writes for a blank row. */
export const isBlank = (cells: readonly string[]) => cells.every((c) => !c.trim());

/** The header (the first record that is not blank) and the data records after it that are not blank. */
export function csvTable(text: string): { header: CsvRecord | undefined; rows: CsvRecord[] } {
  const records = csvRecords(text).filter((r) => !isBlank(r.cells));
  const [header, ...rows] = records;
  return { header, rows };
}

/**
 * A cell a spreadsheet would run as a formula starts with one of these (OWASP, CSV Injection):
 * `=`, `+`, `-`, `@`, tab or carriage return.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A value as one CSV cell that a spreadsheet shows as text: a value that would start a formula is
 * prefixed with a single quote (OWASP's advice), and a cell holding a comma, quote or line break
 * is quoted with its quotes doubled (RFC 4180). Every CSV this service or its console writes
 * passes each cell through here.
 */
export function csvCell(value: string): string {
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV line of cells, each through csvCell, ended with CRLF. */
export const csvLine = (cells: readonly string[]) => `${cells.map(csvCell).join(',')}\r\n`;

/**
 * A cell as read back: the single quote csvCell put before a formula's first character is
 * dropped, so a file downloaded from the console (the rows not imported) can be fixed and
 * imported again unchanged. Any other leading quote is part of the value.
 */
export const cellValue = (cell: string) => (cell.startsWith("'") && FORMULA_START.test(cell.slice(1)) ? cell.slice(1) : cell);
