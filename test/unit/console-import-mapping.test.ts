/**
 * The import page's column mapping (console/src/import-mapping.ts): guesses from other tools'
 * headers, the mappings it refuses, first and last names joined, requisitions by title and stages
 * by label, and every row kept at its number in the original file, as the server reads it.
 */
import { describe, expect, it } from 'vitest';
import { readImportCsv } from '../../console/src/import-file';
import { applyMapping, guessUses, mappingProblem, TEMPLATE_CSV } from '../../console/src/import-mapping';
import { csvTable } from '../../lib/csv';

const REQS = [
  { id: '01a00000-0000-7000-8000-000000000001', title: 'Platform Engineer', status: 'open' },
  { id: '01a00000-0000-7000-8000-000000000002', title: 'Designer', status: 'closed' },
  { id: '01a00000-0000-7000-8000-000000000003', title: 'Designer', status: 'open' },
  { id: '01a00000-0000-7000-8000-000000000004', title: 'Analyst', status: 'open' },
  { id: '01a00000-0000-7000-8000-000000000005', title: 'Analyst', status: 'on_hold' },
  { id: '01a00000-0000-7000-8000-000000000006', title: 'Analyst', status: 'open' },
];

/** A file of another tool, read as the page reads it. */
const fileOf = (text: string) => readImportCsv(text).file;

describe('the column mapping', () => {
  it('guesses other tools’ column names, each use once', () => {
    expect(guessUses(['First Name', 'Last Name', 'Email Address', 'Mobile', 'Job Title', 'Stage', 'Notes', 'E-mail'])).toEqual([
      'first_name',
      'last_name',
      'email',
      'phone',
      'req_title',
      'stage_label',
      '',
      '',
    ]);
    expect(guessUses(['name', 'email', 'req_id', 'resume_url'])).toEqual(['name', 'email', 'req_id', 'resume_url']);
  });

  it.each([
    [['first_name', ''], undefined],
    [['', 'email'], 'Choose the column with the name (or the first and last names): every candidate needs a name.'],
    [['name', 'first_name'], 'Use a column as Name, or columns as First name and Last name, not both.'],
    [['email', 'email', 'name'], 'Two columns are used as “Email”: choose one.'],
    [['name', 'req_title', 'req_id'], 'Use a column as the requisition’s title or as its id, not both.'],
  ] as const)('judges %j', (uses, problem) => {
    expect(mappingProblem([...uses])).toBe(problem);
  });

  it('joins the names, finds requisitions by title and stages by label, and keeps what names nothing as written', () => {
    const file = fileOf(
      [
        'Given,Family,Mail,Position,Status,Notes',
        'Ada,Lovelace,ada@example.com,platform engineer,Interview scheduled,likes engines',
        'Grace,,grace@example.com,Designer,Applied,',
        ',Hopper,,Analyst,offer_sent,',
        'Alan,Turing,alan@example.com,Astronaut,Sleeping,',
      ].join('\n'),
    );
    const m = applyMapping(file, ['first_name', 'last_name', 'email', 'req_title', 'stage_label', ''], { requisitions: REQS });
    expect(m.file.header).toEqual(['name', 'email', 'req_id', 'stage']);
    expect(m.file.rows.map((r) => r.cells)).toEqual([
      ['Ada Lovelace', 'ada@example.com', REQS[0]!.id, 'interview_scheduled'],
      // Two requisitions of that title, one open: the open one.
      ['Grace', 'grace@example.com', REQS[2]!.id, 'applied'],
      // Two open of that title: named as written, so the server refuses the row.
      ['Hopper', '', 'Analyst', 'offer_sent'],
      ['Alan Turing', 'alan@example.com', 'Astronaut', 'Sleeping'],
    ]);
    expect([...m.ambiguousTitles]).toEqual([['Analyst', 1]]);
    expect([...m.unknownTitles]).toEqual([['Astronaut', 1]]);
    expect([...m.unknownStages]).toEqual([['Sleeping', 1]]);
  });

  it('sends every row at its number in the original file, and a formula as text', () => {
    const file = fileOf('\nFull name,Phone\nAda Lovelace,+44 20 7946 0000\n\n"Line\nBreak",\n=cmd,1\n');
    expect(file.rows.map((r) => r.row)).toEqual([3, 5, 6]);
    const m = applyMapping(file, ['name', 'phone'], { requisitions: [] });
    const sent = csvTable(m.text);
    expect(sent.header?.cells).toEqual(['name', 'phone']);
    expect(sent.rows.map((r) => [r.row, ...r.cells])).toEqual([
      [3, 'Ada Lovelace', "'+44 20 7946 0000"],
      [5, 'Line\nBreak', ''],
      [6, "'=cmd", '1'],
    ]);
    expect(m.file.rows.map((r) => r.row)).toEqual([3, 5, 6]);
  });

  it('offers a template with the import’s own columns', () => {
    expect(TEMPLATE_CSV).toBe('name,email,phone,resume_url,req_id,stage\r\n');
    expect(readImportCsv(`${TEMPLATE_CSV}Ada,,,,,\n`).problem).toBeUndefined();
  });
});
