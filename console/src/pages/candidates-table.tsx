/**
 * The candidates table: sortable columns and a checkbox per row. The API lists newest first and
 * sorts nothing else, so a chosen sort orders the rows loaded so far, and the page says so.
 */
import { stageLabel } from '../labels';
import { Link } from '../router';
import { STAGES, type Candidate } from '../recruiting';
import { When } from '../ui';

export type SortKey = 'name' | 'stage' | 'req' | 'updated';
export interface Sort {
  key: SortKey;
  dir: 'asc' | 'desc';
}
export const SORT_LABELS: Record<SortKey, string> = { name: 'Name', stage: 'Stage', req: 'Requisition', updated: 'Last change' };

const text = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });
const compare: Record<SortKey, (a: Candidate, b: Candidate) => number> = {
  name: (a, b) => text.compare(a.name, b.name),
  stage: (a, b) => STAGES.indexOf(a.stage) - STAGES.indexOf(b.stage),
  req: (a, b) => text.compare(a.req_title ?? '', b.req_title ?? ''),
  updated: (a, b) => a.updated_at.localeCompare(b.updated_at),
};

/** The rows in the chosen order (ties keep the API's order); none chosen: as the API answered. */
export function sorted(items: Candidate[], sort: Sort | undefined): Candidate[] {
  if (!sort) return items;
  const sign = sort.dir === 'asc' ? 1 : -1;
  return items
    .map((c, i) => [c, i] as const)
    .sort(([a, i], [b, j]) => sign * compare[sort.key](a, b) || i - j)
    .map(([c]) => c);
}

/** What the order is, in words, for the caption and the status line. */
export function sortText(sort: Sort | undefined): string {
  if (!sort) return 'newest first';
  if (sort.key === 'updated') return sort.dir === 'desc' ? 'last change, latest first' : 'last change, oldest first';
  if (sort.key === 'stage') return sort.dir === 'asc' ? 'stage, pipeline order' : 'stage, reverse pipeline order';
  return `${SORT_LABELS[sort.key].toLowerCase()}, ${sort.dir === 'asc' ? 'A to Z' : 'Z to A'}`;
}

export function CandidatesTable(props: {
  rows: Candidate[];
  busy: boolean;
  sort: Sort | undefined;
  onSort: (s: Sort) => void;
  selected: ReadonlySet<string>;
  onSelect: (ids: string[], on: boolean) => void;
}) {
  const { rows, sort, selected } = props;
  const all = rows.length > 0 && rows.every((c) => selected.has(c.id));
  const some = rows.some((c) => selected.has(c.id));
  const header = (key: SortKey) => {
    const on = sort?.key === key;
    const next: Sort = { key, dir: on && sort.dir === 'asc' ? 'desc' : on ? 'asc' : key === 'updated' ? 'desc' : 'asc' };
    return (
      <th scope="col" aria-sort={on ? (sort.dir === 'asc' ? 'ascending' : 'descending') : undefined}>
        <button type="button" class="sort" onClick={() => props.onSort(next)}>
          {SORT_LABELS[key]}
          <span aria-hidden="true">{on ? (sort.dir === 'asc' ? ' ▲' : ' ▼') : ''}</span>
          <span class="sr-only">, sort by {sortText(next)}</span>
        </button>
      </th>
    );
  };
  return (
    <table class="stack">
      <caption class="sr-only">Candidates, sorted by {sortText(sort)}</caption>
      <thead>
        <tr>
          <th scope="col" class="select">
            <input
              type="checkbox"
              id="select-all"
              aria-label="Select every candidate shown"
              checked={all}
              ref={(el) => {
                if (el) el.indeterminate = some && !all;
              }}
              onChange={(e) =>
                props.onSelect(
                  rows.map((c) => c.id),
                  e.currentTarget.checked,
                )
              }
            />
          </th>
          {header('name')}
          <th scope="col">Email</th>
          {header('stage')}
          {header('req')}
          {header('updated')}
        </tr>
      </thead>
      <tbody aria-busy={props.busy ? 'true' : undefined}>
        {rows.map((c) => (
          <tr key={c.id} class={selected.has(c.id) ? 'selected' : undefined}>
            <td class="select">
              <input
                type="checkbox"
                aria-label={`Select ${c.name || 'erased candidate'}`}
                checked={selected.has(c.id)}
                onChange={(e) => props.onSelect([c.id], e.currentTarget.checked)}
              />
            </td>
            <td data-label="Name">
              <Link href={`/candidates/${c.id}`}>{c.name || 'Erased candidate'}</Link>
            </td>
            <td data-label="Email">{c.email ?? '—'}</td>
            <td data-label="Stage">
              {stageLabel(c.stage)}
              {c.rejection && <span class="hint"> ({c.rejection.label})</span>}
            </td>
            <td data-label="Requisition">
              {c.req_id ? <Link href={`/requisitions/${c.req_id}`}>{c.req_title ?? 'Requisition'}</Link> : '—'}
            </td>
            <td data-label="Last change">
              <When iso={c.updated_at} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
