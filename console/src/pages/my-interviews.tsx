/**
 * "My interviews": the signed-in member's interviews of today and to come, each with its
 * candidate, time, place, panel and kit, and the scorecard form behind "Give feedback". The
 * interviewer's home page. One list call (`interviewer` = you, from today's midnight), then one
 * read per candidate and per interview shown (the interview's read carries its step's kit and
 * scorecard template, which an interviewer reads without the plan). Those who read every
 * scorecard of a requisition also get the interviews of the last two weeks whose feedback is
 * overdue (the read's `feedback_overdue`).
 */
import { useRef, useState } from 'preact/hooks';
import { errorText } from '../api/client';
import { FeedbackOverdue, InterviewTime, Kit } from '../interview-parts';
import {
  dayIn,
  fetchInterview,
  fetchInterviewScorecards,
  fetchInterviews,
  fetchMembers,
  linkOf,
  overallLabel,
  startOfToday,
  viewerZone,
  type Interview,
  type InterviewRead,
  type Member,
  type Scorecard,
} from '../interviews';
import { fetchCandidate } from '../recruiting';
import { Link } from '../router';
import { ScorecardForm } from '../scorecard-form';
import { useSession } from '../session';
import { Empty, ErrorBox, Loaded, PageTitle, useFocusOnShow, useLoad } from '../ui';

interface Row {
  iv: Interview;
  name: string | undefined;
  /** The interview's own read; undefined when it could not be read. */
  read: InterviewRead | undefined;
}
interface Mine {
  rows: Row[];
  overdue: Row[];
  cursor: string | null;
  members: Member[];
}

/** How far back "feedback overdue" looks: past that, a missing scorecard is the recruiter's to chase. */
const OVERDUE_DAYS = 14;

type Lookups = { names: Map<string, Promise<string | undefined>> };

/** Each candidate's name, read once however many interviews share it, and each interview's own read. */
async function rowsOf(items: Interview[], seen: Lookups): Promise<Row[]> {
  const name = (id: string) => {
    if (!seen.names.has(id))
      seen.names.set(
        id,
        fetchCandidate(id).then(
          (c) => c.name ?? undefined,
          () => undefined,
        ),
      );
    return seen.names.get(id)!;
  };
  const scheduled = items.filter((iv) => iv.status === 'scheduled');
  return Promise.all(
    scheduled.map(async (iv) => {
      const [n, read] = await Promise.all([name(iv.candidate_id), fetchInterview(iv.id).catch(() => undefined)]);
      return { iv, name: n, read };
    }),
  );
}

/** Your interviews of the last two weeks whose feedback is overdue; none for an interviewer, who is not told. */
async function overdueOf(userId: string, seen: Lookups): Promise<Row[]> {
  const today = startOfToday();
  const from = new Date(today.getTime() - OVERDUE_DAYS * 86_400_000);
  const page = await fetchInterviews({ interviewer: userId, from: from.toISOString(), to: today.toISOString(), limit: 100 });
  return (await rowsOf(page.data, seen)).filter((r) => r.read?.feedback_overdue === true);
}

export function MyInterviews() {
  const { session } = useSession();
  const [seen] = useState<Lookups>(() => ({ names: new Map() }));
  const query = { interviewer: session.user.id, from: startOfToday().toISOString() };
  const [load, reload] = useLoad<Mine>(async () => {
    const [page, members, overdue] = await Promise.all([
      fetchInterviews(query),
      fetchMembers().catch(() => []),
      session.user.role === 'interviewer' ? [] : overdueOf(session.user.id, seen).catch(() => []),
    ]);
    return { rows: await rowsOf(page.data, seen), overdue, cursor: page.next_cursor, members };
  }, [session.user.id]);
  const [more, setMore] = useState<{ rows: Row[]; cursor: string | null }>();
  const [moreError, setMoreError] = useState<string>();
  const zone = viewerZone();

  const loadMore = async (cursor: string) => {
    setMoreError(undefined);
    try {
      const page = await fetchInterviews({ ...query, cursor });
      const rows = await rowsOf(page.data, seen);
      setMore((m) => ({ rows: [...(m?.rows ?? []), ...rows], cursor: page.next_cursor }));
    } catch (err) {
      setMoreError(errorText(err));
    }
  };

  return (
    <>
      <PageTitle title="My interviews">My interviews</PageTitle>
      <p class="lead">
        Your interviews today and to come, in your time zone ({zone}). Give your feedback after each one: nobody else's scorecard for that
        candidate is shown to you until you have submitted yours.
      </p>
      <Loaded load={load} what="your interviews" retry={reload}>
        {(data) => {
          const rows = [...data.rows, ...(more?.rows ?? [])];
          const cursor = more ? more.cursor : data.cursor;
          const today = dayIn(new Date(), zone);
          const todays = rows.filter((r) => dayIn(r.iv.start, zone) === today);
          const later = rows.filter((r) => dayIn(r.iv.start, zone) !== today);
          const emailOf = new Map(data.members.map((m) => [m.id, m.email]));
          if (!rows.length && !data.overdue.length)
            return (
              <Empty>
                No interviews today or to come. When a recruiter puts you on an interview panel, it shows here with the candidate and the
                interview kit.
              </Empty>
            );
          return (
            <>
              {data.overdue.length > 0 && (
                <section aria-labelledby="iv-overdue">
                  <h2 id="iv-overdue">Feedback overdue</h2>
                  <p>Interviews of the last two weeks you are on, still missing a scorecard after the reminder.</p>
                  <InterviewList rows={data.overdue} emailOf={emailOf} />
                </section>
              )}
              <section aria-labelledby="iv-today">
                <h2 id="iv-today">Today</h2>
                {todays.length ? <InterviewList rows={todays} emailOf={emailOf} /> : <p>No interviews today.</p>}
              </section>
              <section aria-labelledby="iv-later">
                <h2 id="iv-later">Upcoming</h2>
                {later.length ? <InterviewList rows={later} emailOf={emailOf} /> : <p>Nothing after today yet.</p>}
              </section>
              {moreError && <ErrorBox message={moreError} />}
              {cursor && (
                <button type="button" onClick={() => loadMore(cursor)}>
                  Load more interviews
                </button>
              )}
            </>
          );
        }}
      </Loaded>
    </>
  );
}

function InterviewList({ rows, emailOf }: { rows: Row[]; emailOf: Map<string, string> }) {
  return (
    <ul class="iv-list">
      {rows.map((r) => (
        <InterviewItem key={r.iv.id} row={r} emailOf={emailOf} />
      ))}
    </ul>
  );
}

function InterviewItem({ row: { iv, name, read }, emailOf }: { row: Row; emailOf: Map<string, string> }) {
  const { session } = useSession();
  const who = name ?? 'A candidate';
  const link = linkOf(iv.location);
  const [open, setOpen] = useState(false);
  const [mine, setMine] = useState<Scorecard | null>();
  const [error, setError] = useState<string>();
  const [saved, setSaved] = useState<string>();
  const headId = `iv-${iv.id}`;
  const again = useRef<HTMLButtonElement>(null);
  // The form is gone once saved: focus goes back to the button that opened it.
  useFocusOnShow(again, [saved], !!saved);

  const giveFeedback = async () => {
    setError(undefined);
    setSaved(undefined);
    try {
      if (mine === undefined) {
        const cards = await fetchInterviewScorecards(iv.id);
        setMine(cards.find((c) => c.interviewer_id === session.user.id) ?? null);
      }
      setOpen(true);
    } catch (err) {
      setError(errorText(err));
    }
  };

  return (
    <li class="card iv">
      <h3 id={headId}>
        {who}: {iv.step_name}
      </h3>
      <p>
        <InterviewTime start={iv.start} end={iv.end} zone={iv.time_zone} />
      </p>
      <dl class="facts">
        <dt>Where</dt>
        <dd>{link ? <a href={link}>{link}</a> : (iv.location ?? 'Not set')}</dd>
        <dt>Panel</dt>
        <dd>{iv.interviewers.map((m) => (m === session.user.id ? 'you' : (emailOf.get(m) ?? 'a former member'))).join(', ')}</dd>
      </dl>
      <p>
        <Link href={`/candidates/${iv.candidate_id}`}>Open {who}'s profile</Link>
      </p>
      {read?.feedback_overdue && <FeedbackOverdue />}
      {read?.kit != null ? (
        <Kit kit={read.kit} step={iv.step_name} />
      ) : read === undefined ? null : (
        <p class="hint">This step is no longer in the plan.</p>
      )}
      {saved && (
        <p class="alert success" role="status">
          {saved}
        </p>
      )}
      {error && <ErrorBox message={error} />}
      {open ? (
        <ScorecardForm
          interviewId={iv.id}
          template={read?.scorecard_template ?? undefined}
          mine={mine ?? undefined}
          onCancel={() => {
            setOpen(false);
            setSaved(undefined);
            queueMicrotask(() => again.current?.focus());
          }}
          onSaved={(s) => {
            setMine(s);
            setOpen(false);
            setSaved(`Scorecard submitted: ${overallLabel(s.overall)} (version ${s.version}).`);
          }}
        />
      ) : (
        <button
          type="button"
          class="primary"
          ref={again}
          onClick={giveFeedback}
          aria-label={`${mine ? 'Edit your feedback' : 'Give feedback'} on ${who}: ${iv.step_name}`}
        >
          {mine ? 'Edit your feedback' : 'Give feedback'}
        </button>
      )}
    </li>
  );
}
