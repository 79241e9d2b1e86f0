/**
 * What an import keeps of a candidate's personal data: the file's chunks only until their rows are
 * counted (each deleted as the job passes it, not at the job's end), and row errors that name the
 * row, column and code, never a cell's value.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanTable } from '../helpers/scan';
import { startStack, type Stack } from '../helpers/stack';
import { readImportFile, chunkRows } from '../../lib/imports/parse';
import { createImportJob, getImportJob } from '../../lib/store/imports';
import { runImport } from '../../lib/domain/import-run';
import { newId, nowIso } from '../../lib/ids';

let stack: Stack;
let tenantId: string;

beforeAll(async () => {
  stack = await startStack();
  tenantId = (await stack.tenant()).id;
});
afterAll(() => stack.close());

/** The import's own items of the table (job, chunks, errors, file pointer), as stored. */
const importItems = () =>
  scanTable({
    FilterExpression: 'begins_with(#t, :import)',
    ExpressionAttributeNames: { '#t': 'type' },
    ExpressionAttributeValues: { ':import': 'import_' },
  });

describe('what an import keeps', () => {
  it('deletes each chunk once its rows are counted, and keeps no cell value in its row errors', async () => {
    // Every refused value carries a marker the stored items must never hold.
    const refused = [
      'Bad Email,not-an-email-SECRET1,,,',
      'Bad Phone,,call SECRET2,,',
      'Bad Url,,,javascript:SECRET3,',
      'Bad Stage,,,,SECRET4',
      `${'SECRET5'.repeat(40)},,,,`,
      'Dup Person,secret6-dup@retention.example,,,',
      'Dup Again,SECRET6-DUP@retention.example,,,',
    ];
    const lines = ['name,email,phone,resume_url,stage', ...refused];
    // Two chunks need 501 rows; most are refused (cheap: an error item each) and the last few are
    // created, so the file spans both chunks without creating hundreds of candidates.
    for (let i = lines.length - 1; i < 487; i++) lines.push(`Filler Row ${i},,,,not-a-stage`);
    for (let i = lines.length - 1; i < 510; i++) lines.push(`Kept Person ${i},kept-${i}@retention.example,+1 555 0100,,`);
    const rows = readImportFile(`${lines.join('\n')}\n`, 'csv');
    const chunks = chunkRows(rows);
    expect(chunks.length).toBe(2);
    const at = nowIso();
    const id = newId();
    await createImportJob(
      tenantId,
      {
        id,
        format: 'csv',
        total: rows.length,
        chunk_rows: chunks.map((c) => c.length),
        created_ms: Date.parse(at),
        digest: id,
        created_at: at,
        updated_at: at,
      },
      chunks,
    );
    const chunkItems = async () => (await importItems()).filter((i) => i.type === 'import_chunk' && i.job_id === id).map((i) => i.SK);
    expect(await chunkItems()).toHaveLength(2);

    // A run whose time runs out once the first chunk's rows are counted (two slices of 250).
    let slices = 0;
    const requeued: number[] = [];
    const first = await runImport(tenantId, id, {
      timeLeftMs: () => (++slices <= 2 ? 60_000 : 0),
      requeue: async (delayS) => {
        requeued.push(delayS);
      },
    });
    expect([first, requeued]).toEqual(['continued', [0]]);
    expect((await getImportJob(tenantId, id))!.next_row).toBe(500);
    expect(await chunkItems()).toEqual([expect.stringMatching(/#C#0001$/)]);

    expect(await runImport(tenantId, id, { timeLeftMs: () => 60_000, requeue: async () => {} })).toBe('completed');
    const job = (await getImportJob(tenantId, id))!;
    expect([job.created, job.skipped, job.failed]).toEqual([24, 1, 485]);
    const left = (await importItems()).filter((i) => i.job_id === id || i.SK === `IMPORT#${id}`);
    // The job (counts only), its row errors, and the pointer from the file's digest to the job.
    expect(new Set(left.map((i) => i.type))).toEqual(new Set(['import_job', 'import_error', 'import_file']));
    const stored = JSON.stringify(left);
    expect(stored).not.toMatch(/secret/i);
    // The phone's whole text: its digits alone can turn up in an id or a timestamp.
    expect(stored).not.toMatch(/retention\.example|Kept Person|Dup Person|Filler Row|\+1 555 0100|\+15550100/);
    // Every item the import keeps expires.
    for (const i of left) expect(Number(i.expires_at)).toBeGreaterThan(Date.now() / 1000);
  });
});
