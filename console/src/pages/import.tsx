/**
 * Import candidates from a spreadsheet's CSV: choose (or drop) the file, see its first rows under
 * their columns, check it with a dry run, import it with a progress bar, and download the rows
 * that were not imported, with an `error` column. The server judges every row; the page reads the
 * file with the server's own CSV reader (console/src/import-file.ts), so the row numbers it shows
 * and the rows it writes back are the server's.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, errorText, unwrap } from '../api/client';
import { COLUMNS, failedRowsCsv, type ImportFile, readImportCsv } from '../import-file';
import { TEMPLATE_CSV, type Mapped } from '../import-mapping';
import { ColumnMapping, MappingWarnings } from './import-mapping';
import { Link } from '../router';
import { Notice, PageTitle } from '../ui';

type Job = Awaited<ReturnType<typeof getJob>>;
type RowError = { row: number; outcome: string; field: string | null; code: string; error: string };
type DryRun = {
  counts: { total: number; created: number; skipped: number; failed: number };
  errors: RowError[];
  errors_truncated: boolean;
};

const PREVIEW_ROWS = 5;

const getJob = async (id: string) => (await unwrap(api.GET('/api/candidates/imports/{id}', { params: { path: { id } } }))).data;

async function allErrors(id: string): Promise<RowError[]> {
  const out: RowError[] = [];
  let cursor: string | undefined;
  do {
    const page = await unwrap(api.GET('/api/candidates/imports/{id}/errors', { params: { path: { id }, query: { limit: 500, cursor } } }));
    out.push(...page.data);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return out;
}

const post = (text: string, dryRun: boolean) =>
  unwrap(
    api.POST('/api/candidates/imports', {
      params: { query: dryRun ? { dry_run: 'true' } : {} },
      body: text as never,
      bodySerializer: (b: unknown) => b as string,
      headers: { 'Content-Type': 'text/csv' },
    }),
  );

export function ImportCandidates() {
  const [file, setFile] = useState<ImportFile & { name: string; text: string }>();
  const [problem, setProblem] = useState<string>();
  /** A file whose columns are not the import's: mapped before anything else. */
  const [toMap, setToMap] = useState<ImportFile & { name: string }>();
  const [mapped, setMapped] = useState<Mapped>();
  const [dry, setDry] = useState<DryRun>();
  const [job, setJob] = useState<Job>();
  const [failedCsv, setFailedCsv] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [dragging, setDragging] = useState(false);
  const status = useRef<HTMLDivElement>(null);

  const choose = async (f: File | undefined) => {
    setDry(undefined);
    setJob(undefined);
    setFailedCsv(undefined);
    setError(undefined);
    setToMap(undefined);
    setMapped(undefined);
    if (!f) return setFile(undefined);
    const text = await f.text();
    const read = readImportCsv(text);
    setProblem(read.problem);
    setFile({ name: f.name, text, ...read.file });
    // Columns of another tool (or none called name), with rows to map: offer the mapping.
    if (read.problem && read.file.header.length && read.file.rows.length) setToMap({ name: f.name, ...read.file });
  };

  const takeMapping = (m: Mapped) => {
    const name = toMap?.name ?? 'the file';
    setToMap(undefined);
    setMapped(m);
    setProblem(undefined);
    setFile({ name: `${name} (mapped)`, text: m.text, ...m.file });
  };

  const dryRun = async () => {
    if (!file) return;
    setBusy(true);
    setError(undefined);
    try {
      setDry((await post(file.text, true)).data as DryRun);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  const start = async () => {
    if (!file) return;
    setBusy(true);
    setError(undefined);
    try {
      setJob((await post(file.text, false)).data as Job);
    } catch (err) {
      setError(errorText(err));
      setBusy(false);
    }
  };

  // Follow the job until it ends; then offer the rows not imported.
  useEffect(() => {
    if (!job || job.status === 'completed' || job.status === 'failed') {
      if (job && file && job.counts.failed + job.counts.skipped > 0 && failedCsv === undefined) {
        void allErrors(job.id)
          .then((errs) => setFailedCsv(failedRowsCsv(file, errs)))
          .catch((err) => setError(errorText(err)));
      }
      if (job) setBusy(false);
      return;
    }
    const t = setTimeout(async () => {
      try {
        setJob(await getJob(job.id));
      } catch (err) {
        setError(errorText(err));
      }
    }, 400);
    return () => clearTimeout(t);
  }, [job]);

  const head = file?.header ?? [];
  const preview = file?.rows.slice(0, PREVIEW_ROWS) ?? [];
  const done = job && (job.status === 'completed' || job.status === 'failed');
  return (
    <>
      <PageTitle title="Import candidates">Import candidates</PageTitle>
      <p class="lead">
        Add many candidates at once from a spreadsheet saved as CSV (UTF-8), at most 10,000 rows. The first row names the columns:{' '}
        {COLUMNS.map((c, i) => (
          <span key={c}>
            {i ? ', ' : ''}
            <code>{c}</code>
          </span>
        ))}
        . Only <code>name</code> is required. A row whose email is already in the workspace is skipped. A file from another tool can be
        mapped onto these columns once chosen. <Link href="/docs">API docs</Link>
      </p>
      <p>
        <a href={`data:text/csv;charset=utf-8,${encodeURIComponent(TEMPLATE_CSV)}`} download="candidates-template.csv">
          Download a template CSV
        </a>
      </p>
      <fieldset
        class={`dropzone${dragging ? ' dragging' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          void choose(e.dataTransfer?.files[0]);
        }}
      >
        <legend>The file to import</legend>
        <label for="import-file">CSV file</label>
        <input
          id="import-file"
          type="file"
          accept=".csv,text/csv"
          onChange={(e) => void choose((e.target as HTMLInputElement).files?.[0])}
        />
        <p class="hint">Or drop the file here.</p>
      </fieldset>
      {problem && <Notice kind="warning">{problem}</Notice>}
      {toMap && <ColumnMapping key={toMap.name + toMap.header.join()} file={toMap} name={toMap.name} onMapped={takeMapping} />}
      {mapped && <MappingWarnings m={mapped} />}
      {file && !problem && (
        <section aria-labelledby="preview-title">
          <h2 id="preview-title">
            First rows of {file.name} ({file.rows.length} rows)
          </h2>
          <div class="scroll">
            <table>
              <thead>
                <tr>
                  <th scope="col">Row</th>
                  {head.map((h) => (
                    <th scope="col" key={h}>
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {preview.map((r) => (
                  <tr key={r.row}>
                    <td>{r.row}</td>
                    {head.map((_, j) => (
                      <td key={j}>{r.cells[j] ?? ''}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p class="actions">
            <button type="button" onClick={dryRun} disabled={busy}>
              Check the file
            </button>{' '}
            <button type="button" class="primary" onClick={start} disabled={busy || !!job}>
              Import {file.rows.length} rows
            </button>
          </p>
        </section>
      )}
      {error && <Notice kind="warning">{error}</Notice>}
      <div ref={status} role="status" aria-live="polite">
        {dry && !job && (
          <section aria-labelledby="dry-title">
            <h2 id="dry-title">Check result (nothing was imported)</h2>
            <p>
              {dry.counts.created} of {dry.counts.total} rows would be imported; {dry.counts.skipped} skipped as duplicates,{' '}
              {dry.counts.failed} with errors.
            </p>
            {dry.errors.length > 0 && (
              <ErrorTable
                errors={dry.errors}
                caption={`Rows that would not be imported${dry.errors_truncated ? ' (the first 100)' : ''}`}
              />
            )}
          </section>
        )}
        {job && (
          <section aria-labelledby="job-title">
            <h2 id="job-title">{done ? (job.status === 'completed' ? 'Import finished' : 'Import stopped') : 'Importing…'}</h2>
            <label for="import-progress">
              {job.processed} of {job.counts.total} rows done
            </label>
            <progress id="import-progress" max={job.counts.total} value={job.processed} />
            {done && (
              <p>
                {job.counts.created} created, {job.counts.skipped} skipped as duplicates, {job.counts.failed} failed.
              </p>
            )}
            {failedCsv !== undefined && (
              <p>
                <a
                  href={`data:text/csv;charset=utf-8,${encodeURIComponent(failedCsv)}`}
                  download={`not-imported-${file?.name ?? 'rows.csv'}`}
                >
                  Download the rows not imported (CSV with an error column)
                </a>
              </p>
            )}
          </section>
        )}
      </div>
    </>
  );
}

function ErrorTable({ errors, caption }: { errors: RowError[]; caption: string }) {
  return (
    <div class="scroll">
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Row</th>
            <th scope="col">Column</th>
            <th scope="col">Problem</th>
          </tr>
        </thead>
        <tbody>
          {errors.map((e) => (
            <tr key={e.row}>
              <td>{e.row}</td>
              <td>{e.field ?? '—'}</td>
              <td>{e.error}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
