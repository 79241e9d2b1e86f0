/** The landing page: stage chart with total_active, stuck candidates, open requisitions. */
import { api, unwrap } from '../api/client';
import { Link } from '../router';
import { STAGE_ORDER, stageLabel } from '../labels';
import { Empty, Loaded, PageTitle, Scroll, useLoad } from '../ui';

const fetchOverview = async () => (await unwrap(api.GET('/api/overview'))).data;
type OverviewData = Awaited<ReturnType<typeof fetchOverview>>;

export function Overview() {
  const [load, reload] = useLoad(fetchOverview);
  return (
    <>
      <PageTitle title="Overview">Overview</PageTitle>
      <Loaded load={load} what="the overview" retry={reload}>
        {(d) => <OverviewBody d={d} />}
      </Loaded>
    </>
  );
}

function OverviewBody({ d }: { d: OverviewData }) {
  const { pipeline } = d;
  const counts = pipeline.stage_counts as Record<string, number>;
  const stages = STAGE_ORDER.filter((s) => s in counts);
  const max = Math.max(1, ...stages.map((s) => counts[s] ?? 0));
  const stuck = [...pipeline.stuck_candidates].sort((a, b) => b.days_in_stage - a.days_in_stage);
  return (
    <>
      <div class="overview-top">
        <figure class="card chart" aria-labelledby="chart-cap">
          <figcaption id="chart-cap">Candidates per stage</figcaption>
          <ul class="bars">
            {stages.map((s) => {
              const n = counts[s] ?? 0;
              return (
                <li key={s}>
                  <span class="bar-label">{stageLabel(s)}</span>
                  <svg class="bar" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true" focusable="false">
                    <rect x="0" y="0" width={(100 * n) / max} height="10" class={s === 'rejected' ? 'muted' : ''} />
                  </svg>
                  <span class="bar-value">{n}</span>
                </li>
              );
            })}
          </ul>
        </figure>
        <div class="stats">
          <div class="card stat">
            <span class="stat-value">{pipeline.total_active}</span>
            <span class="stat-label">active candidates</span>
          </div>
          <div class="card stat">
            <span class="stat-value">{d.open_requisitions}</span>
            <span class="stat-label">open requisitions</span>
          </div>
          <div class="card stat">
            <span class="stat-value">{stuck.length}</span>
            <span class="stat-label">stuck candidates</span>
          </div>
        </div>
      </div>

      <section aria-labelledby="stuck-h">
        <h2 id="stuck-h">Stuck candidates</h2>
        {stuck.length === 0 ? (
          <Empty>
            Nobody is stuck: every candidate moved within their stage's threshold. Thresholds are set in{' '}
            <Link href="/settings/pipeline">pipeline settings</Link>.
          </Empty>
        ) : (
          <Scroll label="Stuck candidates">
            <table>
              <caption class="sr-only">Stuck candidates, longest in stage first</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Stage</th>
                  <th scope="col" class="num">
                    Days in stage
                  </th>
                  <th scope="col">Requisition</th>
                </tr>
              </thead>
              <tbody>
                {stuck.map((c) => (
                  <tr key={c.id}>
                    <td>
                      <Link href={`/candidates/${c.id}`}>{c.name}</Link>
                    </td>
                    <td>{stageLabel(c.stage)}</td>
                    <td class="num">{c.days_in_stage}</td>
                    <td>{c.req_title ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Scroll>
        )}
      </section>

      <section aria-labelledby="reqs-h">
        <h2 id="reqs-h">Open requisitions</h2>
        {d.requisitions.length === 0 ? (
          <Empty>
            No open requisitions. Create one on the <Link href="/requisitions">requisitions</Link> page or from your ATS sync; once one is
            open it shows here with its candidates.
          </Empty>
        ) : (
          <Scroll label="Open requisitions">
            <table>
              <caption class="sr-only">Open requisitions, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Title</th>
                  <th scope="col">Department</th>
                  <th scope="col">Location</th>
                  <th scope="col" class="num">
                    Candidates
                  </th>
                  <th scope="col" class="num">
                    Offers pending
                  </th>
                </tr>
              </thead>
              <tbody>
                {d.requisitions.map((r) => (
                  <tr key={r.id}>
                    <td>
                      <Link href={`/requisitions/${r.id}`}>{r.title}</Link>
                    </td>
                    <td>{r.department ?? '—'}</td>
                    <td>{r.location ?? '—'}</td>
                    <td class="num">{r.candidate_count}</td>
                    <td class="num">{r.offers_pending}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Scroll>
        )}
      </section>
    </>
  );
}
