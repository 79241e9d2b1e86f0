/** Placements: every hire in the workspace, filtered by status, exported as CSV (the rows loaded). */
import { Link, navigate, useLocation } from '../router';
import { PlacementTable } from '../placement-list';
import { PageTitle } from '../ui';

const FILTERS = [
  ['', 'All'],
  ['active', 'Active'],
  ['cancelled', 'Cancelled'],
] as const;

export function Placements() {
  const { query } = useLocation();
  const status =
    query.get('status') === 'active' || query.get('status') === 'cancelled' ? (query.get('status') as 'active' | 'cancelled') : undefined;
  return (
    <>
      <PageTitle title="Placements">Placements</PageTitle>
      <p class="lead">
        Each hire, made when a candidate enters Placed: oldest change first. The CSV export holds the rows loaded;{' '}
        <strong>Load more</strong> first to export more.
      </p>
      <div class="field">
        <label for="placement-status">Status</label>
        <select
          id="placement-status"
          value={status ?? ''}
          onChange={(e) =>
            navigate(e.currentTarget.value ? `/placements?status=${e.currentTarget.value}` : '/placements', { replace: true })
          }
        >
          {FILTERS.map(([v, l]) => (
            <option key={v} value={v}>
              {l}
            </option>
          ))}
        </select>
      </div>
      <PlacementTable query={status ? { status } : {}} showReq label="Placements" />
      <p class="hint">
        A requisition's own placements are on its page (<Link href="/requisitions">Requisitions</Link>).
      </p>
    </>
  );
}
