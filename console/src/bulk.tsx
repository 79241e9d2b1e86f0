/**
 * Bulk actions on the selected candidates of the list: move them, reject them with one reason,
 * export them as CSV. A move or rejection is one API call per candidate, one at a time (each sent
 * with the stage the list showed), with a progress bar and a result per candidate: some may fail.
 */
import { useState } from 'preact/hooks';
import { csvLine } from '../../lib/csv';
import { errorText } from './api/client';
import { ReasonFields } from './candidate-actions';
import { stageLabel } from './labels';
import { useMay } from './session';
import { FormDialog, moveCandidate, STAGES, staleStage, type Candidate, type Stage } from './recruiting';

export interface BulkResult {
  id: string;
  name: string;
  ok: boolean;
  message: string;
}

type Run = { what: string; done: number; total: number; results: BulkResult[]; finished: boolean };

const nameOf = (c: Candidate) => c.name || 'Erased candidate';

/**
 * The selection as CSV: what the table shows (name, email, stage with the rejection reason,
 * requisition, last change), every cell passed through the server's own injection-safe writer.
 */
export function selectionCsv(rows: Candidate[]): string {
  const head = csvLine(['Name', 'Email', 'Stage', 'Rejection reason', 'Requisition', 'Last change']);
  return (
    head +
    rows
      .map((c) => csvLine([nameOf(c), c.email ?? '', stageLabel(c.stage), c.rejection?.label ?? '', c.req_title ?? '', c.updated_at]))
      .join('')
  );
}

export function BulkBar({
  selected,
  onClear,
  onDone,
}: {
  selected: Candidate[];
  onClear: () => void;
  onDone: (failed: string[]) => Promise<void>;
}) {
  const moves = useMay()('POST /api/pipeline');
  const [target, setTarget] = useState<Stage>('ai_screened');
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string>();
  const [run, setRun] = useState<Run>();
  const busy = Boolean(run && !run.finished);

  const runAll = async (what: string, act: (c: Candidate) => Promise<string>) => {
    const rows = [...selected];
    const results: BulkResult[] = [];
    setRun({ what, done: 0, total: rows.length, results, finished: false });
    for (const c of rows) {
      try {
        results.push({ id: c.id, name: nameOf(c), ok: true, message: await act(c) });
      } catch (err) {
        const now = staleStage(err);
        results.push({
          id: c.id,
          name: nameOf(c),
          ok: false,
          message: now ? `someone else moved them first: they are now in ${stageLabel(now)}` : errorText(err),
        });
      }
      setRun({ what, done: results.length, total: rows.length, results: [...results], finished: false });
    }
    setRun({ what, done: results.length, total: rows.length, results, finished: true });
    await onDone(results.filter((r) => !r.ok).map((r) => r.id));
  };

  const move = () =>
    runAll(`Moving to ${stageLabel(target)}`, async (c) => {
      if (c.stage === target) return `already in ${stageLabel(target)}`;
      await moveCandidate(c.id, target, c.stage);
      return `moved from ${stageLabel(c.stage)} to ${stageLabel(target)}`;
    });
  const reject = async () => {
    if (!reason) return setReasonError('Choose a reason for the rejection.');
    setRejecting(false);
    await runAll('Rejecting', async (c) => {
      if (c.stage === 'rejected') return 'already rejected';
      await moveCandidate(c.id, 'rejected', c.stage, { rejection_reason_id: reason });
      return `rejected from ${stageLabel(c.stage)}`;
    });
  };
  const csv = selectionCsv(selected);
  const n = selected.length;
  const failed = run?.results.filter((r) => !r.ok) ?? [];

  return (
    <section class="card bulk" aria-labelledby="bulk-h">
      <h2 id="bulk-h">Selected candidates</h2>
      <p>
        {n > 0
          ? `${n} selected.`
          : moves
            ? 'Select candidates with the checkboxes to move, reject or export them together.'
            : 'Select candidates with the checkboxes to export them together.'}
      </p>
      {n > 0 && (
        <div class="bulk-actions">
          {moves && (
            <form
              class="move"
              onSubmit={(e) => {
                e.preventDefault();
                void move();
              }}
            >
              <label for="bulk-stage">Move the selected to</label>
              <select id="bulk-stage" value={target} onChange={(e) => setTarget(e.currentTarget.value as Stage)} disabled={busy}>
                {STAGES.filter((s) => s !== 'rejected').map((s) => (
                  <option key={s} value={s}>
                    {stageLabel(s)}
                  </option>
                ))}
              </select>
              <button type="submit" disabled={busy}>
                Move {n}
              </button>
            </form>
          )}
          {moves && (
            <button
              type="button"
              disabled={busy}
              onClick={() => {
                setReason('');
                setReasonError(undefined);
                setRejecting(true);
              }}
            >
              Reject {n}…
            </button>
          )}
          <a class="button" href={`data:text/csv;charset=utf-8,${encodeURIComponent(csv)}`} download="candidates.csv">
            Export {n} as CSV
          </a>
          <button type="button" onClick={onClear} disabled={busy}>
            Clear the selection
          </button>
        </div>
      )}
      <div role="status" aria-live="polite" class="bulk-status">
        {run && (
          <>
            <p>
              <label for="bulk-progress">
                {run.what}: {run.done} of {run.total}
                {run.finished ? ` done, ${run.total - failed.length} succeeded, ${failed.length} failed.` : '…'}
              </label>{' '}
              <progress id="bulk-progress" max={run.total} value={run.done} />
            </p>
            {run.finished && failed.length > 0 && (
              <>
                <p>Not changed (still selected):</p>
                <ul>
                  {failed.map((r) => (
                    <li key={r.id}>
                      {r.name}: {r.message}
                    </li>
                  ))}
                </ul>
              </>
            )}
          </>
        )}
      </div>
      {run?.finished && (
        <details>
          <summary>Every result ({run.results.length})</summary>
          <ul>
            {run.results.map((r) => (
              <li key={r.id}>
                {r.ok ? '✓' : '✗'} {r.name}: {r.message}
              </li>
            ))}
          </ul>
        </details>
      )}
      <FormDialog
        open={rejecting}
        title={`Reject ${n} candidate${n === 1 ? '' : 's'}`}
        submitLabel={`Reject ${n}`}
        busy={busy}
        onSubmit={() => void reject()}
        onClose={() => setRejecting(false)}
      >
        <p class="hint">One reason for all of them; each is sent with the stage the list shows.</p>
        <ReasonFields reason={reason} note="" onReason={setReason} onNote={() => {}} error={reasonError} who={`the ${n} selected`} noNote />
      </FormDialog>
    </section>
  );
}
