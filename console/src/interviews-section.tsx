/**
 * The Interviews section of a candidate's page: their interviews (time in the viewer's zone, the
 * panel, how many scorecards are in, whether feedback is overdue), "Schedule an interview" from the requisition's plan, and the
 * scorecards summary: the count of each recommendation, then every scorecard the API lets the
 * viewer read (the blind rule is the API's: an interviewer reads the others' once theirs is in).
 */
import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { FeedbackOverdue, InterviewTime } from './interview-parts';
import {
  fetchCandidateScorecards,
  fetchInterview,
  fetchInterviews,
  fetchMembers,
  fetchPlan,
  OVERALLS,
  overallLabel,
  span,
  viewerZone,
  type Interview,
  type Scorecard,
} from './interviews';
import type { ProfileSectionProps } from './profile-sections';
import { Live } from './recruiting';
import { ScheduleInterview } from './schedule-interview';
import { useMay, useSession } from './session';
import { Empty, Loaded, useLoad, When } from './ui';

export function InterviewsSection({ candidate: c }: ProfileSectionProps) {
  const may = useMay();
  const { session } = useSession();
  /**
   * The interviews whose feedback is overdue: the read of each scheduled one that has ended (the
   * list does not carry it). An interviewer is not told, so reads nothing more.
   */
  const overdueOf = async (ivs: Interview[]) => {
    if (session.user.role === 'interviewer') return new Set<string>();
    const ended = ivs.filter((iv) => iv.status === 'scheduled' && Date.parse(iv.end) < Date.now());
    const reads = await Promise.all(ended.map((iv) => fetchInterview(iv.id).catch(() => undefined)));
    return new Set(reads.filter((r) => r?.feedback_overdue === true).map((r) => r!.id));
  };
  const readsPlan = may('GET /api/requisitions/{id}/interview-plan') && c.req_id !== null;
  const schedules = may('POST /api/candidates/{id}/interviews') && !c.erased_at;
  const [load, reload] = useLoad(async () => {
    const [interviews, cards, members, plan] = await Promise.all([
      fetchInterviews({ candidate: c.id, limit: 100 }),
      fetchCandidateScorecards(c.id),
      fetchMembers(),
      readsPlan ? fetchPlan(c.req_id!) : Promise.resolve(undefined),
    ]);
    return { interviews: interviews.data, cards, members, plan, overdue: await overdueOf(interviews.data) };
  }, [c.id, c.req_id]);
  const [scheduling, setScheduling] = useState(false);
  const [said, setSaid] = useState<string>();
  const who = c.name ?? 'this candidate';

  return (
    <section class="card" aria-labelledby="interviews-h">
      <h2 id="interviews-h">Interviews</h2>
      <Live message={said} kind="success" />
      <Loaded load={load} what="the interviews" retry={reload}>
        {({ interviews, cards, members, plan, overdue }) => {
          const emailOf = (id: string) => (id === session.user.id ? 'you' : (members.find((m) => m.id === id)?.email ?? 'a former member'));
          const steps = plan?.steps ?? [];
          return (
            <>
              {schedules &&
                (steps.length ? (
                  <button type="button" onClick={() => setScheduling(true)}>
                    Schedule an interview
                  </button>
                ) : c.req_id ? (
                  <p class="hint">
                    The requisition has no interview plan yet: add its steps on the requisition's page to schedule interviews.
                  </p>
                ) : (
                  <p class="hint">Interviews follow a requisition's plan: put the candidate on a requisition to schedule one.</p>
                ))}
              {scheduling && (
                <ScheduleInterview
                  candidateId={c.id}
                  who={who}
                  steps={steps}
                  members={members}
                  onClose={() => setScheduling(false)}
                  onScheduled={async (iv) => {
                    setScheduling(false);
                    setSaid(undefined);
                    // Said once the list shows it.
                    await reload();
                    setSaid(
                      `Scheduled ${iv.step_name}: ${span(iv.start, iv.end, viewerZone())}, with ${iv.interviewers.map(emailOf).join(', ')}.`,
                    );
                  }}
                />
              )}
              {interviews.length ? (
                <ul class="iv-list">
                  {interviews.map((iv) => (
                    <InterviewRow
                      key={iv.id}
                      iv={iv}
                      cards={cards}
                      emailOf={emailOf}
                      overdue={overdue.has(iv.id)}
                      zoneOf={(id) => members.find((m) => m.id === id)?.time_zone}
                    />
                  ))}
                </ul>
              ) : (
                <Empty>No interviews yet.</Empty>
              )}
              <Scorecards cards={cards} interviews={interviews} emailOf={emailOf} mine={session.user.id} />
            </>
          );
        }}
      </Loaded>
    </section>
  );
}

function InterviewRow({
  iv,
  cards,
  emailOf,
  overdue,
  zoneOf,
}: {
  iv: Interview;
  cards: Scorecard[];
  emailOf: (id: string) => string;
  overdue: boolean;
  zoneOf: (id: string) => string | null | undefined;
}) {
  const own = viewerZone();
  // An interviewer in another zone than the viewer's: the time there too.
  const withZone = (id: string) => {
    const z = zoneOf(id);
    return z && z !== own ? `${emailOf(id)} (${span(iv.start, iv.end, z)} ${z})` : emailOf(id);
  };
  const inOf = new Set(cards.filter((s) => s.interview_id === iv.id).map((s) => s.interviewer_id));
  return (
    <li>
      <h3>
        {iv.step_name}
        {iv.status === 'cancelled' && <span class="badge">cancelled</span>}
      </h3>
      <p>
        <InterviewTime start={iv.start} end={iv.end} zone={iv.time_zone} />
      </p>
      <p>With {iv.interviewers.map(withZone).join(', ')}</p>
      {/* The blind rule answers all of a candidate's scorecards or none: with none, nothing to count. */}
      {iv.status === 'scheduled' && cards.length > 0 && (
        <p>
          {inOf.size} of {iv.interviewers.length} scorecards
        </p>
      )}
      {overdue && <FeedbackOverdue />}
    </li>
  );
}

function Scorecards({
  cards,
  interviews,
  emailOf,
  mine,
}: {
  cards: Scorecard[];
  interviews: Interview[];
  emailOf: (id: string) => string;
  mine: string;
}) {
  const onPanel = interviews.some((iv) => iv.status === 'scheduled' && iv.interviewers.includes(mine));
  const wroteOne = cards.some((s) => s.interviewer_id === mine);
  const stepOf = (s: Scorecard) => interviews.find((iv) => iv.id === s.interview_id)?.step_name ?? 'An interview';
  return (
    <section aria-labelledby="scorecards-h">
      <h3 id="scorecards-h">Scorecards</h3>
      {onPanel && !wroteOne && <p class="hint">The other interviewers' scorecards are shown once you have submitted yours.</p>}
      {cards.length === 0 ? (
        <Empty>No scorecards you may read yet.</Empty>
      ) : (
        <>
          <ul class="tally" aria-label="Recommendations">
            {OVERALLS.map((o) => (
              <li key={o}>
                {overallLabel(o)}: <strong>{cards.filter((s) => s.overall === o).length}</strong>
              </li>
            ))}
          </ul>
          <ul class="iv-list">
            {cards.map((s) => (
              <li key={s.id} class="scorecard">
                <h4>
                  {stepOf(s)}, {emailOf(s.interviewer_id)}: {overallLabel(s.overall)}
                </h4>
                <p class="hint">
                  Submitted <When iso={s.submitted_at} />
                  {s.version > 1 && `, version ${s.version}`}
                </p>
                {s.ratings.length > 0 && (
                  <dl class="facts">
                    {s.ratings.map((r) => (
                      <Fragment key={r.attribute}>
                        <dt>{r.attribute}</dt>
                        <dd>{overallLabel(r.rating)}</dd>
                      </Fragment>
                    ))}
                  </dl>
                )}
                {s.answers.map((a) => (
                  <div key={a.question}>
                    <p class="note-meta">{a.question}</p>
                    <p class="kit-text">{a.answer}</p>
                  </div>
                ))}
                {s.note && <p class="kit-text">{s.note}</p>}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
