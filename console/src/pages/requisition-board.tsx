/**
 * A requisition's board: a column per stage, each card with its own "Move to…" (dragging a
 * card is an extra for the mouse); columns page on their own and redraw only when theirs changes.
 */
import { Component } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, errorText } from '../api/client';
import { AddCandidateDialog, AddedNotice, type Created } from '../add-candidate';
import { stageLabel } from '../labels';
import { Link } from '../router';
import {
  daysBetween,
  daysText,
  fetchCandidates,
  fetchThresholds,
  isStuck,
  Live,
  moveCandidate,
  MoveTo,
  STAGES,
  staleStage,
  type Candidate,
  type MoveOutcome,
  type RequisitionDetail,
  type Stage,
} from '../recruiting';
import { useMay } from '../session';
import { ErrorBox } from '../ui';
import type { LiveMessage } from './requisition';

const COLUMN_PAGE = 50;

// ---- the board -------------------------------------------------------------------------------

type Column =
  | { state: 'loading' }
  | { state: 'error'; error: string }
  | { state: 'ok'; items: Candidate[]; count: number; next: string | null; loadingMore?: boolean };

type Columns = Partial<Record<Stage, Column>>;
const ACTIVE_COLUMNS = STAGES.filter((s) => s !== 'rejected');

/** A column's page: the list route by requisition and stage (`rejected=true` for the rejected). */
async function fetchColumn(
  reqId: string,
  stage: Stage,
  cursor?: string,
): Promise<{ items: Candidate[]; next: string | null; count: number }> {
  const filter = stage === 'rejected' ? { rejected: 'true' as const } : { stage };
  const p = await fetchCandidates({ req_id: reqId, ...filter, limit: COLUMN_PAGE, ...(cursor && { cursor }) });
  return { items: p.data, next: p.next_cursor, count: p.count };
}

export function Board({ r, onChanged }: { r: RequisitionDetail; onChanged: () => Promise<void> }) {
  // Beside the board, not at the top of the page: on a phone the board is far below it.
  const [live, say] = useState<LiveMessage>();
  const [cols, setCols] = useState<Columns>({});
  const [showRejected, setShowRejected] = useState(false);
  const [thresholds, setThresholds] = useState<Record<string, number>>();
  const [adding, setAdding] = useState(false);
  const can = useMay();
  const [added, setAdded] = useState<Created>();
  const dragged = useRef<Candidate | undefined>(undefined);
  /** Where focus goes once the board shows a move: the card in its new column, or that column's heading. */
  const focusAfter = useRef<{ card?: string; stage: Stage } | undefined>(undefined);

  const loadColumn = async (stage: Stage) => {
    setCols((c) => ({ ...c, [stage]: c[stage]?.state === 'ok' ? c[stage] : { state: 'loading' } }));
    try {
      const p = await fetchColumn(r.id, stage);
      setCols((c) => ({ ...c, [stage]: { state: 'ok', items: p.items, next: p.next, count: p.count } }));
    } catch (err) {
      setCols((c) => ({ ...c, [stage]: { state: 'error', error: errorText(err) } }));
    }
  };
  /**
   * Every column at once, shown in one render: a render per arriving column would draw the whole
   * board (up to 400 cards) once per column.
   */
  const loadAll = async (thresholdsToo = false) => {
    const stages = [...ACTIVE_COLUMNS, ...(showRejected ? (['rejected'] as const) : [])];
    // The thresholds decide every card's Stuck mark: arriving apart, they would draw the board twice.
    const th = thresholdsToo ? fetchThresholds().catch(() => undefined) : undefined;
    const loaded = await Promise.all(
      stages.map(async (stage): Promise<[Stage, Column]> => {
        try {
          const p = await fetchColumn(r.id, stage);
          return [stage, { state: 'ok', items: p.items, next: p.next, count: p.count }];
        } catch (err) {
          return [stage, { state: 'error', error: errorText(err) }];
        }
      }),
    );
    if (thresholdsToo) setThresholds(await th);
    setCols((c) => ({ ...c, ...Object.fromEntries(loaded) }));
  };

  const showMore = async (stage: Stage) => {
    const col = cols[stage];
    if (col?.state !== 'ok' || !col.next) return;
    setCols((c) => ({ ...c, [stage]: { ...col, loadingMore: true } }));
    try {
      const p = await fetchColumn(r.id, stage, col.next);
      setCols((c) => ({ ...c, [stage]: { ...col, items: [...col.items, ...p.items], next: p.next, loadingMore: false } }));
    } catch (err) {
      say({ message: `Could not show more of ${stageLabel(stage)}: ${errorText(err)}`, kind: 'warning' });
      setCols((c) => ({ ...c, [stage]: { ...col, loadingMore: false } }));
    }
  };

  useEffect(() => {
    void loadAll(true);
  }, [r.id]);
  useEffect(() => {
    if (showRejected) void loadColumn('rejected');
  }, [showRejected]);

  // After a move, focus follows the card to its new column (or that column's heading).
  useEffect(() => {
    const to = focusAfter.current;
    if (!to) return;
    const el = to.card ? document.getElementById(`card-${to.card}`) : document.getElementById(`col-${to.stage}`);
    // Until its column is reloaded, the card is still in the column it left.
    if (el?.closest<HTMLElement>('[data-stage]')?.dataset.stage === to.stage) {
      focusAfter.current = undefined;
      el.focus();
    }
  });

  const afterMove = async (c: Candidate, o: MoveOutcome) => {
    if (o.kind === 'moved') {
      say({ message: `Moved ${c.name} from ${stageLabel(c.stage)} to ${stageLabel(o.to)}.`, kind: 'success' });
      focusAfter.current = o.to === 'rejected' && !showRejected ? { stage: o.to } : { card: c.id, stage: o.to };
      await Promise.all([loadColumn(c.stage), o.to !== 'rejected' || showRejected ? loadColumn(o.to) : undefined, onChanged()]);
    } else if (o.kind === 'stale') {
      say({ message: `${o.message} The board is up to date again.`, kind: 'warning' });
      await Promise.all([loadAll(), onChanged()]);
    } else say({ message: o.message, kind: 'warning' });
  };

  const drop = async (to: Stage) => {
    const c = dragged.current;
    dragged.current = undefined;
    if (!c || c.stage === to) return;
    // A rejection asks why, which a drop cannot: the card's own Move to… does.
    if (to === 'rejected') {
      say({ message: `To reject ${c.name}, choose Rejected in their card's Move to…, with a reason. Nothing was moved.`, kind: 'warning' });
      return;
    }
    try {
      await moveCandidate(c.id, to, c.stage);
      await afterMove(c, { kind: 'moved', to });
    } catch (err) {
      const now = staleStage(err);
      await afterMove(
        c,
        err instanceof ApiError && err.status === 409
          ? {
              kind: 'stale',
              now,
              message: `Someone else moved ${c.name} first${now ? `: they are now in ${stageLabel(now)}` : ''}. Nothing was moved.`,
            }
          : { kind: 'failed', message: `Could not move ${c.name}: ${errorText(err)}` },
      );
    }
  };

  // Rejected stays unread while collapsed: its count is then what the requisition's total leaves.
  const known = ACTIVE_COLUMNS.map((s) => cols[s]).filter((c): c is Extract<Column, { state: 'ok' }> => c?.state === 'ok');
  const latest = useRef({ showMore, loadColumn, afterMove });
  latest.current = { showMore, loadColumn, afterMove };
  const rejectedCount =
    known.length === ACTIVE_COLUMNS.length ? Math.max(0, Number(r.candidate_count) - known.reduce((a, c) => a + c.count, 0)) : undefined;

  return (
    <section aria-labelledby="board-h">
      <div class="section-head">
        <h2 id="board-h">Board</h2>
        {can('POST /api/candidates') && (
          <button type="button" class="primary" onClick={() => setAdding(true)}>
            Add candidate
          </button>
        )}
      </div>
      <AddedNotice added={added} />
      <p class="hint" id="board-help">
        Each card's Move… button opens its own “Move to” control. With a mouse you can also drag a card to another column.
      </p>
      <Live message={live?.message} kind={live?.kind} />
      {/* biome-ignore lint/a11y/useSemanticElements lint/a11y/noNoninteractiveTabindex: the board scrolls sideways on wide screens, so it must take focus and be named (axe: scrollable-region-focusable) */}
      <div class="board-wrap" role="region" aria-label="Board columns" tabIndex={0}>
        <ol class="board" aria-describedby="board-help">
          {STAGES.map((stage) => {
            const col = cols[stage];
            const collapsed = stage === 'rejected' && !showRejected;
            const count = col?.state === 'ok' ? col.count : stage === 'rejected' ? rejectedCount : undefined;
            return (
              <li
                key={stage}
                class={collapsed ? 'column collapsed' : 'column'}
                data-stage={stage}
                onDragOver={(e) => {
                  if (dragged.current) e.preventDefault();
                }}
                onDrop={(e) => {
                  e.preventDefault();
                  void drop(stage);
                }}
              >
                <h3 id={`col-${stage}`} tabIndex={-1}>
                  {stageLabel(stage)} <span class="count">{count === undefined ? '…' : count}</span>
                </h3>
                {stage === 'rejected' && (
                  <button type="button" aria-expanded={showRejected} onClick={() => setShowRejected(!showRejected)}>
                    {showRejected ? 'Hide rejected' : 'Show rejected'}
                  </button>
                )}
                {!collapsed && (
                  <StableColumn
                    col={col}
                    stage={stage}
                    thresholds={thresholds}
                    // Through `latest`: a column that skipped a render still calls today's functions.
                    more={() => latest.current.showMore(stage)}
                    retry={() => latest.current.loadColumn(stage)}
                    afterMove={(c, o) => latest.current.afterMove(c, o)}
                    dragged={dragged}
                  />
                )}
              </li>
            );
          })}
        </ol>
      </div>
      <AddCandidateDialog
        open={adding}
        requisition={{ id: r.id, title: r.title, status: r.status }}
        onClose={() => setAdding(false)}
        onCreated={async (c) => {
          setAdding(false);
          setAdded(c);
          await Promise.all([loadAll(), onChanged()]);
        }}
      />
    </section>
  );
}

type ColumnProps = Parameters<typeof ColumnBody>[0];

/**
 * A column redraws only when its own page or the thresholds change: a move changes two columns,
 * and the board's other cards (each with its own Move to control) stay as they are.
 */
class StableColumn extends Component<ColumnProps> {
  override shouldComponentUpdate(next: ColumnProps) {
    return next.col !== this.props.col || next.thresholds !== this.props.thresholds || next.stage !== this.props.stage;
  }
  override render() {
    return <ColumnBody {...this.props} />;
  }
}

function ColumnBody(props: {
  col: Column | undefined;
  stage: Stage;
  thresholds?: Record<string, number>;
  more: () => void;
  retry: () => void;
  afterMove: (c: Candidate, o: MoveOutcome) => Promise<void>;
  dragged: { current: Candidate | undefined };
}) {
  const { col } = props;
  if (!col || col.state === 'loading') return <p class="loading">Loading…</p>;
  if (col.state === 'error') return <ErrorBox message={`Could not load this column: ${col.error}`} retry={props.retry} />;
  if (col.items.length === 0) return <p class="hint">Nobody here.</p>;
  return (
    <>
      <ul class="cards">
        {col.items.map((c) => (
          <BoardCard key={c.id} c={c} thresholds={props.thresholds} afterMove={props.afterMove} dragged={props.dragged} />
        ))}
      </ul>
      {col.next && (
        <button type="button" onClick={props.more} disabled={col.loadingMore} aria-label={`Show more: ${stageLabel(props.stage)}`}>
          {col.loadingMore ? 'Loading…' : 'Show more'}
        </button>
      )}
    </>
  );
}

/** "2 of 3 scorecards": counts the list answers (never a recommendation), so the board reads nothing more. */
function ScorecardProgress({ c }: { c: Candidate }) {
  const p = c.interview_progress;
  if (!p || p.scorecards_expected === 0) return null;
  return (
    <p class="card-progress">
      {p.scorecards} of {p.scorecards_expected} scorecards
    </p>
  );
}

/**
 * A compact card: the name, days in the stage, the stuck flag and the scorecards in. Its Move control opens the
 * "Move to…" form inside the card (focus goes to the stage select; Escape closes it), so nine
 * columns of cards fit a 1280 px screen and every move stays possible without dragging.
 */
function BoardCard(props: {
  c: Candidate;
  thresholds?: Record<string, number>;
  afterMove: (c: Candidate, o: MoveOutcome) => Promise<void>;
  dragged: { current: Candidate | undefined };
}) {
  const { c } = props;
  const [open, setOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const form = useRef<HTMLDivElement>(null);
  const days = daysBetween(c.stage_entered_at);
  const stuck = isStuck(c.stage, days, props.thresholds);
  const close = () => {
    setOpen(false);
    toggle.current?.focus();
  };
  useEffect(() => {
    const el = form.current;
    if (!open || !el) return;
    el.querySelector('select')?.focus();
    // Escape closes the form and gives focus back to the card's Move button.
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.stopPropagation();
      close();
    };
    el.addEventListener('keydown', onKey);
    return () => el.removeEventListener('keydown', onKey);
  }, [open]);
  return (
    <li
      class={stuck ? 'card-item stuck' : 'card-item'}
      draggable
      onDragStart={(e) => {
        props.dragged.current = c;
        e.dataTransfer?.setData('text/plain', c.name);
      }}
      onDragEnd={() => {
        props.dragged.current = undefined;
      }}
    >
      <Link href={`/candidates/${c.id}`} id={`card-${c.id}`} class="card-name">
        {c.name || 'Erased candidate'}
      </Link>
      <p class="card-meta">
        <span title={`${daysText(days)} in this stage`}>
          {days} d<span class="sr-only"> ({daysText(days)} in this stage)</span>
        </span>
        {stuck && <span class="badge stuck">Stuck</span>}
        <button
          type="button"
          class="card-move"
          ref={toggle}
          aria-expanded={open}
          aria-label={`Move… ${c.name || 'Erased candidate'}`}
          onClick={() => (open ? close() : setOpen(true))}
        >
          Move…
        </button>
      </p>
      <ScorecardProgress c={c} />
      {open && (
        <div ref={form}>
          <MoveTo
            candidate={c}
            compact
            onDone={async (o) => {
              if (o.kind !== 'moved') setOpen(false);
              await props.afterMove(c, o);
            }}
          />
        </div>
      )}
    </li>
  );
}
