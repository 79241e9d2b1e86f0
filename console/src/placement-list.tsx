/**
 * Placements, the record of each hire: the table the Placements page and a requisition's page
 * share, with "Load more" along the cursor, and the CSV of the rows loaded. Compensation is
 * personal data: it is shown and exported, never logged.
 */
import { api, type paths, unwrap } from './api/client';
import { jobTypeLabel } from './labels';
import { moneyText } from './offer-data';
import { placementsCsv } from './placement-csv';
import { Link } from './router';
import { Empty, Loaded, Scroll, useLoad, useOlderPages, When } from './ui';

type Query = NonNullable<paths['/api/placements']['get']['parameters']['query']>;
export const fetchPlacements = (q: Query) => unwrap(api.GET('/api/placements', { params: { query: q } }));
export type Placement = Awaited<ReturnType<typeof fetchPlacements>>['data'][number];

const STATUS = { active: 'Active', cancelled: 'Cancelled' } as const;
const pay = (p: Placement) => (p.compensation ? moneyText(p.compensation) : '');

/** The placements matching `query`, 50 a page; `showReq` adds the requisition column. */
export function PlacementTable({ query, showReq, label }: { query: Omit<Query, 'cursor' | 'limit'>; showReq: boolean; label: string }) {
  const key = JSON.stringify(query);
  const [load, reload, refreshing] = useLoad(() => fetchPlacements({ ...query, limit: 50 }), [key]);
  const [older, more] = useOlderPages(load, refreshing, (cursor) => fetchPlacements({ ...query, limit: 50, cursor }), 'Load more');
  return (
    <Loaded load={load} what="the placements" retry={reload}>
      {(page) => {
        const rows = [...page.data, ...older];
        if (rows.length === 0) return <Empty>No placements yet: one is made when a candidate enters Placed.</Empty>;
        const csv = placementsCsv(rows);
        return (
          <>
            <Scroll label={label}>
              <table>
                <caption class="sr-only">{label}</caption>
                <thead>
                  <tr>
                    <th scope="col">Candidate</th>
                    {showReq && <th scope="col">Requisition</th>}
                    <th scope="col">Status</th>
                    <th scope="col">Start date</th>
                    <th scope="col">Compensation</th>
                    <th scope="col">Employment type</th>
                    <th scope="col">Location</th>
                    <th scope="col">Hired</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((p) => (
                    <tr key={p.id}>
                      <td>
                        <Link href={`/candidates/${p.candidate_id}`}>{p.candidate_name || 'Erased candidate'}</Link>
                      </td>
                      {showReq && (
                        <td>{p.req_id ? <Link href={`/requisitions/${p.req_id}`}>{p.req_title ?? 'Requisition'}</Link> : '—'}</td>
                      )}
                      <td>
                        {STATUS[p.status]}
                        {p.cancel_reason && <span class="hint"> ({p.cancel_reason})</span>}
                      </td>
                      <td>{p.start_date ?? '—'}</td>
                      <td>{pay(p) || '—'}</td>
                      <td>{p.employment_type ? jobTypeLabel(p.employment_type) : '—'}</td>
                      <td>{p.location ?? '—'}</td>
                      <td>
                        <When iso={p.hired_at} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </Scroll>
            <div class="actions">
              {more}
              <a class="button" href={`data:text/csv;charset=utf-8,${encodeURIComponent(csv)}`} download="placements.csv">
                Export the {rows.length} loaded as CSV
              </a>
            </div>
          </>
        );
      }}
    </Loaded>
  );
}
