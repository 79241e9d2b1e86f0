/**
 * One CSV reader for the import (lib/imports/parse.ts) and the console's import page
 * (console/src/import-file.ts): the row numbers the server reports are the rows a spreadsheet
 * shows (docs/api.md, Bulk import), and the console finds each reported row in the file it holds.
 * And every CSV cell written goes through csvCell: a formula reaches a spreadsheet as text.
 */
import { describe, expect, it } from 'vitest';
import { failedRowsCsv, readImportCsv } from '../../console/src/import-file';
import { cellValue, csvCell, csvLine, csvRecords } from '../../lib/csv';
import { readImportFile } from '../../lib/imports/parse';

/**
 * [what, file, the rows that are not blank after the header: their number and first cell, as a
 * spreadsheet shows them]. A name spanning lines is refused (a control character), on its own row.
 */
const CASES: [string, string, [number, string][]][] = [
  [
    'plain LF',
    'name,email\nAda,ada@x.example\nGrace,grace@x.example\n',
    [
      [2, 'Ada'],
      [3, 'Grace'],
    ],
  ],
  [
    'no trailing newline',
    'name\nAda\nGrace',
    [
      [2, 'Ada'],
      [3, 'Grace'],
    ],
  ],
  [
    'CRLF',
    'name,email\r\nAda,ada@x.example\r\nGrace,grace@x.example\r\n',
    [
      [2, 'Ada'],
      [3, 'Grace'],
    ],
  ],
  [
    'BOM',
    '\uFEFFname\nAda\nGrace\n',
    [
      [2, 'Ada'],
      [3, 'Grace'],
    ],
  ],
  [
    'a blank line is a row',
    'name\nAda\n\nGrace\n',
    [
      [2, 'Ada'],
      [4, 'Grace'],
    ],
  ],
  [
    'blank CRLF lines are rows',
    'name\r\n\r\nAda\r\n\r\n\r\nGrace\r\n',
    [
      [3, 'Ada'],
      [6, 'Grace'],
    ],
  ],
  [
    'a line holding only "" is a row',
    'name\nAda\n""\nGrace\n',
    [
      [2, 'Ada'],
      [4, 'Grace'],
    ],
  ],
  [
    'a row of empty cells is a row',
    'name,email\nAda,\n,\n"",""\nGrace,\n',
    [
      [2, 'Ada'],
      [5, 'Grace'],
    ],
  ],
  [
    'a quoted newline stays in one row',
    'name,email\n"Ada\nLovelace",ada@x.example\nGrace,\n',
    [
      [2, 'Ada\nLovelace'],
      [3, 'Grace'],
    ],
  ],
  [
    'a quoted CRLF stays in one row',
    'name\r\n"Ada\r\nLovelace"\r\nGrace\r\n',
    [
      [2, 'Ada\r\nLovelace'],
      [3, 'Grace'],
    ],
  ],
  ['blank lines before the header', '\n\nname\nAda\n', [[4, 'Ada']]],
  ['trailing blank lines', 'name\nAda\n\n\n', [[2, 'Ada']]],
  [
    'quoted commas and doubled quotes',
    'name\n"Hopper, ""Amazing"" Grace"\nAda\n',
    [
      [2, 'Hopper, "Amazing" Grace'],
      [3, 'Ada'],
    ],
  ],
  [
    'everything at once',
    '\uFEFFname,email\r\n\r\n""\r\n"Ada\nL",a@x.example\r\n,\r\nGrace,\r\n',
    [
      [4, 'Ada\nL'],
      [6, 'Grace'],
    ],
  ],
];

describe("one CSV reader: the server and the console agree on every row, and the rows are the docs' rows", () => {
  it.each(CASES)('%s', (_what, text, expected) => {
    const server = readImportFile(text, 'csv');
    expect(server.map((r) => r.row)).toEqual(expected.map(([row]) => row));
    for (const [i, r] of server.entries())
      expect(r.body?.name ?? r.error?.field).toBe(expected[i]![1].includes('\n') ? 'name' : expected[i]![1]);
    const { file, problem } = readImportCsv(text);
    expect(problem).toBeUndefined();
    expect(file.rows.map((r) => [r.row, r.cells[0]])).toEqual(expected);
  });

  it('the console writes back exactly the rows the server refused, found by their numbers', () => {
    const text = 'name,email\r\n""\r\nAda,ada@x.example\r\n\r\nBad,not-an-email\r\n"Multi\nLine",also-bad\r\nGrace,grace@x.example\r\n';
    const refused = readImportFile(text, 'csv').filter((r) => r.error);
    expect(refused.map((r) => r.row)).toEqual([5, 6]);
    const csv = failedRowsCsv(
      readImportCsv(text).file,
      refused.map((r) => ({ row: r.row, error: r.error!.message })),
    );
    expect(csv).toBe(
      'name,email,error\r\nBad,not-an-email,email must be an email address\r\n"Multi\nLine",also-bad,name must not contain control characters\r\n',
    );
  });

  it('refuses a broken file the same way on both sides, with the line', () => {
    for (const [text, line] of [
      ['name\n"Ada\n', 2],
      ['name\nAda\n"Gr"ace\n', 3],
    ] as const) {
      expect(() => readImportFile(text, 'csv')).toThrow(new RegExp(`not valid CSV near line ${line}`));
      expect(readImportCsv(text).problem).toMatch(new RegExp(`^The file is not valid CSV near line ${line}: `));
    }
  });

  it('numbers every record, blank ones too, and starts none after a final newline', () => {
    expect(csvRecords('a\n\n""\nb\n')).toEqual([
      { row: 1, cells: ['a'] },
      { row: 2, cells: [''] },
      { row: 3, cells: [''] },
      { row: 4, cells: ['b'] },
    ]);
    expect(csvRecords('')).toEqual([]);
    expect(csvRecords('\uFEFF')).toEqual([]);
  });
});

describe('CSV injection: every cell written is text to a spreadsheet', () => {
  it.each([
    ['=HYPERLINK("https://evil.example","x")', `"'=HYPERLINK(""https://evil.example"",""x"")"`],
    ['+44 20 7946 0018', "'+44 20 7946 0018"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1:A2)', "'@SUM(A1:A2)"],
    ['\t=1+1', "'\t=1+1"],
    ['\r=1+1', `"'\r=1+1"`],
    ['Ada Lovelace', 'Ada Lovelace'],
    ['Hopper, Grace', '"Hopper, Grace"'],
    ['a "quote"', '"a ""quote"""'],
    ['', ''],
    ["'already quoted", "'already quoted"],
    ['x=1', 'x=1'],
  ])('%j -> %j', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
    // Read back, the cell is the value again.
    expect(csvRecords(`${cell}\n`).map((r) => r.cells.map(cellValue))).toEqual([[value === '' ? '' : value]]);
  });

  it('the rows not imported neutralise formulas in every column, the error included', () => {
    const text = 'name,phone\n"=cmd|\' /C calc\'!A0",+44 20 7946 0018\n@Grace,-1\n';
    const file = readImportCsv(text).file;
    const csv = failedRowsCsv(file, [
      { row: 2, error: '=not a formula' },
      { row: 3, error: 'name is bad' },
    ]);
    for (const record of csvRecords(csv)) for (const cell of record.cells) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
    expect(csv).toBe(`name,phone,error\r\n'=cmd|' /C calc'!A0,'+44 20 7946 0018,'=not a formula\r\n'@Grace,'-1,name is bad\r\n`);
  });

  it('a downloaded file of rows not imported imports again with the values it was made from', () => {
    const text = 'name,phone,email\n=Ada,+44 20 7946 0018,not-an-email\n';
    const [row] = readImportFile(text, 'csv');
    const csv = failedRowsCsv(readImportCsv(text).file, [{ row: row!.row, error: row!.error!.message }]);
    // Fixed in a spreadsheet: the email, and the error column removed.
    const fixed = csv
      .replace('not-an-email', 'ada@x.example')
      .replace(',error', '')
      .replace(/,email must be[^\r]*/, '');
    expect(readImportFile(fixed, 'csv')).toEqual([
      { row: 2, body: { name: '=Ada', phone: '+44 20 7946 0018', email: 'ada@x.example', stage: 'applied' } },
    ]);
    expect(csvLine(['a', '=b'])).toBe("a,'=b\r\n");
  });
});

describe('the same person twice in one file', () => {
  const [r1, r2] = ['0192f1a0-0000-7000-8000-0000000000a1', '0192f1a0-0000-7000-8000-0000000000a2'];
  it('is their next candidate on another requisition, and a skipped duplicate_candidate on the same one (or again without one)', () => {
    const rows = readImportFile(
      [
        'name,email,req_id',
        `Ann,ann@x.example,${r1}`,
        `Ann,ANN@x.example,${r2}`,
        `Ann,ann@x.example,${r1}`,
        'Ann,ann@x.example,',
        'Ann,Ann@X.example,',
      ].join('\n'),
      'csv',
    );
    expect(rows.map((r) => [r.row, r.repeat ?? false, r.error?.code ?? null, r.error?.field ?? null])).toEqual([
      [2, false, null, null],
      [3, true, null, null],
      [4, false, 'duplicate_candidate', 'req_id'],
      [5, true, null, null],
      [6, false, 'duplicate_candidate', 'email'],
    ]);
    expect(rows[2]!.error).toMatchObject({
      skipped: true,
      message: 'this person (the same email) is in row 2 of this file on the same requisition',
    });
  });
});
