/**
 * Candidates: search as you type, stage (the rejected included) and requisition filters in the
 * URL, "Load more", sortable columns, bulk actions on a selection, add one.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { errorText } from '../api/client';
import { AddCandidateDialog, AddedNotice, type Created } from '../add-candidate';
import { CvUploadDialog, type FromCv } from '../add-from-cv';
import { BulkBar } from '../bulk';
import type { Reason } from '../candidate-actions';
import { SOURCE_LABELS, sourceLabel, stageLabel } from '../labels';
import { Link, navigate, useLocation } from '../router';
import {
  fetchAllRequisitions,
  fetchCandidates,
  fetchRejectionReasons,
  LIST_STAGES,
  type Candidate,
  type CandidateQuery,
  type Requisition,
} from '../recruiting';
import { useMay, useSession } from '../session';
import { Empty, ErrorBox, Loading, PageTitle } from '../ui';
import { CandidatesTable, sorted, sortText, type Sort } from './candidates-table';

const PAGE = 50;
const DEBOUNCE_MS = 250;
type Filters = { q: string; stage: string; req_id: string; reason: string; source: string };

const toUrl = (f: Filters) => {
  const p = new URLSearchParams();
  if (f.q.trim()) p.set('q', f.q.trim());
  if (f.stage) p.set('stage', f.stage);
  if (f.req_id) p.set('req_id', f.req_id);
  if (f.source) p.set('source', f.source);
  // A reason narrows the rejected only.
  if (f.stage === 'rejected' && f.reason) p.set('reason', f.reason);
  const s = p.toString();
  return s ? `/candidates?${s}` : '/candidates';
};

type List =
  | { state: 'loading'; items?: Candidate[] }
  | { state: 'error'; error: string; items?: Candidate[] }
  | { state: 'ok'; items: Candidate[]; count: number; next: string | null; loadingMore?: boolean; moreError?: string };

export function Candidates() {
  const { query } = useLocation();
  const filters: Filters = {
    q: query.get('q') ?? '',
    stage: query.get('stage') ?? '',
    req_id: query.get('req_id') ?? '',
    reason: query.get('reason') ?? '',
    source: query.get('source') ?? '',
  };
  const key = toUrl(filters);
  const [text, setText] = useState(filters.q);
  const [list, setList] = useState<List>({ state: 'loading' });
  const [reqs, setReqs] = useState<Requisition[]>();
  const [adding, setAdding] = useState(false);
  const [added, setAdded] = useState<Created>();
  /** "Add candidate from a CV": picking the CV, then the form with the CV it read. */
  const [pickingCv, setPickingCv] = useState(false);
  const [cv, setCv] = useState<FromCv>();
  /** The form is open for the CV read last; the CV itself is kept while the dialog closes, so its title does not change. */
  const [addingFromCv, setAddingFromCv] = useState(false);
  const can = useMay();
  const [sort, setSort] = useState<Sort>();
  const [selected, setSelected] = useState<ReadonlyMap<string, Candidate>>(new Map());
  const [reasons, setReasons] = useState<Reason[]>();
  const seq = useRef(0);
  const typed = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  /** The query of the history entry that typing made last, while it is still the one shown. */
  const typedEntry = useRef<string | undefined>(undefined);

  const apiQuery = (cursor?: string): CandidateQuery => ({
    limit: PAGE,
    ...(filters.q.trim() && { q: filters.q.trim() }),
    ...(filters.stage === 'rejected'
      ? { rejected: 'true' as const }
      : filters.stage && { stage: filters.stage as CandidateQuery['stage'] }),
    ...(filters.req_id && { req_id: filters.req_id }),
    // The API filters a list by source, not a search: a search's rows are narrowed here instead.
    ...(filters.source && !filters.q.trim() && { source: filters.source }),
    ...(cursor && { cursor }),
  });

  const load = async (): Promise<Candidate[]> => {
    const mine = ++seq.current;
    // The rows on screen stay while the next answer is on its way: typing does not blank the table.
    setList((l) => ({ state: 'loading', items: l.items }));
    try {
      const page = await fetchCandidates(apiQuery());
      if (mine === seq.current) setList({ state: 'ok', items: page.data, count: page.count, next: page.next_cursor });
      return page.data;
    } catch (err) {
      if (mine === seq.current) setList({ state: 'error', error: errorText(err) });
      return [];
    }
  };

  const loadMore = async () => {
    if (list.state !== 'ok' || !list.next) return;
    const mine = seq.current;
    setList({ ...list, loadingMore: true, moreError: undefined });
    try {
      const page = await fetchCandidates(apiQuery(list.next));
      if (mine === seq.current) setList({ state: 'ok', items: [...list.items, ...page.data], count: page.count, next: page.next_cursor });
    } catch (err) {
      if (mine === seq.current) setList({ ...list, loadingMore: false, moreError: errorText(err) });
    }
  };

  useEffect(() => {
    setSelected(new Map());
    void load();
  }, [key]);
  // Back and forward change the URL: the box follows it.
  useEffect(() => {
    // The URL of a query that settled while typing: the box may already be ahead of it.
    if (filters.q === typedEntry.current) return;
    // Back or forward: the box shows that query, and the next settled one is a new entry.
    typedEntry.current = undefined;
    if (filters.q !== text.trim()) setText(filters.q);
  }, [filters.q]);
  useEffect(() => {
    fetchAllRequisitions().then(setReqs, () => setReqs([]));
    fetchRejectionReasons().then(setReasons, () => setReasons([]));
    return () => clearTimeout(typed.current);
  }, []);

  const onType = (v: string) => {
    setText(v);
    clearTimeout(typed.current);
    // Each settled query is one history entry, so Back returns to the previous search. Typing on
    // from a query that settled while typing (a slow typist, a busy machine) refines it: its
    // entry is replaced, so Back never stops at "l" on its way from "lovel".
    typed.current = setTimeout(() => {
      const shown = new URLSearchParams(location.search).get('q') ?? '';
      const refines = typedEntry.current === shown && v.startsWith(shown) && v !== shown;
      navigate(toUrl({ ...filters, q: v }), { replace: refines });
      typedEntry.current = v;
    }, DEBOUNCE_MS);
  };
  const setFilter = (f: Partial<Filters>) => {
    clearTimeout(typed.current);
    typedEntry.current = undefined;
    navigate(toUrl({ ...filters, q: text, ...f }));
  };
  const filtered = Boolean(filters.q.trim() || filters.stage || filters.req_id || filters.source);
  // A source filter's page is counted by its length (no counter counts a source), like a search's.
  const paged = Boolean(filters.q.trim() || filters.source);
  // The reason filter and the sort act on the rows loaded: the API filters and sorts by neither.
  const loaded = list.items ?? [];
  const rows = sorted(
    loaded.filter(
      (c) =>
        (!filters.reason || c.rejection?.reason_id === filters.reason) &&
        (!filters.source || !filters.q.trim() || c.source === filters.source),
    ),
    sort,
  );
  const sources = [
    ...new Set([
      ...Object.keys(SOURCE_LABELS),
      ...loaded.flatMap((c) => (c.source ? [c.source] : [])),
      ...(filters.source ? [filters.source] : []),
    ]),
  ];
  const more = list.state === 'ok' && Boolean(list.next);
  const reasonLabel = reasons?.find((r) => r.id === filters.reason)?.label ?? filters.reason;
  const select = (ids: string[], on: boolean) =>
    setSelected((m) => {
      const next = new Map(m);
      for (const id of ids) {
        const c = loaded.find((x) => x.id === id);
        if (on && c) next.set(id, c);
        else next.delete(id);
      }
      return next;
    });

  return (
    <>
      <PageTitle title="Candidates">Candidates</PageTitle>
      {can('POST /api/candidates') && (
        <div class="page-actions">
          <button type="button" class="primary" onClick={() => setAdding(true)}>
            Add candidate
          </button>{' '}
          {can('POST /api/people/{id}/files') && (
            <>
              <button type="button" onClick={() => setPickingCv(true)}>
                Add candidate from a CV
              </button>{' '}
            </>
          )}
          {can('POST /api/candidates/imports') && <Link href="/candidates/import">Import from a CSV file</Link>}
        </div>
      )}
      <AddedNotice added={added} />
      <search aria-label="Find candidates">
        <form
          class="filters"
          onSubmit={(e) => {
            e.preventDefault();
            setFilter({});
          }}
        >
          <div class="field grow">
            <label for="cand-q">Search</label>
            <input
              id="cand-q"
              type="search"
              value={text}
              autoComplete="off"
              aria-describedby="cand-q-hint"
              onInput={(e) => onType(e.currentTarget.value)}
            />
            <p class="hint" id="cand-q-hint">
              The start of any part of the name, or of the email.
            </p>
          </div>
          <div class="field">
            <label for="cand-stage">Stage</label>
            <select id="cand-stage" value={filters.stage} onChange={(e) => setFilter({ stage: e.currentTarget.value })}>
              <option value="">All stages</option>
              {LIST_STAGES.map((s) => (
                <option key={s} value={s}>
                  {stageLabel(s)}
                </option>
              ))}
              <option value="rejected">Rejected</option>
            </select>
          </div>
          {filters.stage === 'rejected' && (
            <div class="field">
              <label for="cand-reason">Rejection reason</label>
              <select id="cand-reason" value={filters.reason} onChange={(e) => setFilter({ reason: e.currentTarget.value })}>
                <option value="">Any reason</option>
                {filters.reason && !reasons?.some((r) => r.id === filters.reason) && (
                  <option value={filters.reason}>{filters.reason}</option>
                )}
                {reasons?.map((r) => (
                  <option key={r.id} value={r.id}>
                    {r.label}
                  </option>
                ))}
              </select>
            </div>
          )}
          <div class="field">
            <label for="cand-req">Requisition</label>
            <select id="cand-req" value={filters.req_id} onChange={(e) => setFilter({ req_id: e.currentTarget.value })}>
              <option value="">All requisitions</option>
              {filters.req_id && !reqs?.some((r) => r.id === filters.req_id) && <option value={filters.req_id}>This requisition</option>}
              {reqs?.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.title}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for="cand-source">Source</label>
            <select id="cand-source" value={filters.source} onChange={(e) => setFilter({ source: e.currentTarget.value })}>
              <option value="">Any source</option>
              {sources.map((src) => (
                <option key={src} value={src}>
                  {sourceLabel(src)}
                </option>
              ))}
            </select>
          </div>
        </form>
      </search>
      <p class="result-status" role="status">
        {list.state === 'loading'
          ? 'Searching…'
          : list.state === 'ok'
            ? paged
              ? `${list.items.length}${list.next ? '+' : ''} match${list.items.length === 1 && !list.next ? '' : 'es'}`
              : `${list.count} candidate${list.count === 1 ? '' : 's'}${list.items.length < list.count ? `, ${list.items.length} shown` : ''}`
            : ''}
      </p>
      {(sort || filters.reason || (filters.source && filters.q.trim())) && list.state !== 'error' && (
        <p class="hint" id="cand-order">
          {filters.reason && `${rows.length} rejected for “${reasonLabel}” among the ${loaded.length} loaded. `}
          {filters.source &&
            filters.q.trim() &&
            `${rows.length} from “${sourceLabel(filters.source)}” among the ${loaded.length} matches loaded. `}
          {sort && `Sorted by ${sortText(sort)}: the ${loaded.length} rows loaded. `}
          {more && 'The list has more: “Load more” adds them in this order.'}
        </p>
      )}
      <BulkBar
        selected={[...selected.values()]}
        onClear={() => setSelected(new Map())}
        onDone={async (failed) => {
          const fresh = await load();
          // What failed stays selected, as the list now shows it, to look at or try again.
          setSelected(new Map(fresh.filter((c) => failed.includes(c.id)).map((c) => [c.id, c])));
        }}
      />
      <Results
        rows={rows}
        sort={sort}
        onSort={setSort}
        selected={selected}
        onSelect={select}
        list={list}
        filtered={filtered}
        filters={filters}
        retry={load}
        loadMore={loadMore}
        clear={() => {
          setText('');
          navigate('/candidates');
        }}
        add={can('POST /api/candidates') ? () => setAdding(true) : undefined}
      />
      <AddCandidateDialog
        open={adding || addingFromCv}
        cv={adding ? undefined : cv}
        onClose={() => {
          setAdding(false);
          setAddingFromCv(false);
        }}
        onCreated={(c) => {
          setAdding(false);
          setAddingFromCv(false);
          setAdded(c);
          void load();
        }}
      />
      <CvUploadDialog
        open={pickingCv}
        onClose={() => setPickingCv(false)}
        onReady={(found) => {
          setPickingCv(false);
          setCv(found);
          setAddingFromCv(true);
        }}
      />
    </>
  );
}

/** Why a limited role's list is empty: what it sees, and who adds candidates. */
const INTERVIEWER_EMPTY =
  'No candidates to show. As an interviewer you see only the candidates you are assigned to interview, and none are assigned to you yet.';
const HIRING_MANAGER_EMPTY =
  'No candidates to show. As a hiring manager you see only the candidates of the requisitions whose team names you; recruiters add candidates and name the team.';

function Results(props: {
  rows: Candidate[];
  sort: Sort | undefined;
  onSort: (s: Sort) => void;
  selected: ReadonlyMap<string, Candidate>;
  onSelect: (ids: string[], on: boolean) => void;
  list: List;
  filtered: boolean;
  filters: Filters;
  retry: () => void;
  loadMore: () => void;
  clear: () => void;
  /** Absent for a role that adds no candidate: the empty list then says what the role sees. */
  add?: () => void;
}) {
  const { list } = props;
  const { role } = useSession().session.user;
  if (list.state === 'error') return <ErrorBox message={`Could not load the candidates: ${list.error}`} retry={props.retry} />;
  if (!list.items) return <Loading what="the candidates" />;
  if (list.items.length === 0) {
    if (list.state === 'loading') return <Loading what="the candidates" />;
    return props.filtered ? (
      <Empty>
        <p>
          Nothing matches
          {props.filters.q.trim() ? ` “${props.filters.q.trim()}”` : ''}
          {props.filters.stage ? ` in ${stageLabel(props.filters.stage)}` : ''}
          {props.filters.req_id ? ' on this requisition' : ''}. Try the start of another part of the name or email, or clear the filters.
        </p>
        <button type="button" onClick={props.clear}>
          Clear search and filters
        </button>
      </Empty>
    ) : props.add ? (
      <Empty>
        <p>
          No candidates yet. Add the first one with “Add candidate”, or send them from your ATS with <code>POST /api/v1/candidates</code>.
        </p>
        <button type="button" onClick={props.add}>
          Add the first candidate
        </button>
      </Empty>
    ) : (
      <Empty>
        <p>{role === 'interviewer' ? INTERVIEWER_EMPTY : HIRING_MANAGER_EMPTY}</p>
      </Empty>
    );
  }
  return (
    <>
      <CandidatesTable
        rows={props.rows}
        busy={list.state === 'loading'}
        sort={props.sort}
        onSort={props.onSort}
        selected={new Set(props.selected.keys())}
        onSelect={props.onSelect}
      />
      {list.state === 'ok' && list.moreError && <ErrorBox message={`Could not load more: ${list.moreError}`} retry={props.loadMore} />}
      {list.state === 'ok' && list.next && (
        <button type="button" onClick={props.loadMore} disabled={list.loadingMore}>
          {list.loadingMore ? 'Loading…' : 'Load more'}
        </button>
      )}
    </>
  );
}
