/**
 * One candidate, as a read view: the header (name, contact, the job and its stage, the actions),
 * the edit form on demand, the sections (others mount theirs in profile-sections.tsx), the stage
 * history and, for admins, erasure.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { AddToJobDialog, MoveJobDialog, RejectDialog } from '../candidate-actions';
import { sourceLabel, stageLabel } from '../labels';
import { PROFILE_SECTIONS } from '../profile-sections';
import { Link } from '../router';
import {
  daysBetween,
  daysText,
  fetchCandidate,
  fetchThresholds,
  isStuck,
  Live,
  MoveTo,
  type CandidateDetail,
  type MoveOutcome,
} from '../recruiting';
import { Loaded, Notice, PageTitle, When, useLoad } from '../ui';
import { api, unwrap } from '../api/client';
import { useMay } from '../session';
import { EditProfile, Erase, History } from './candidate-parts';

type Dialog = 'reject' | 'add-job' | 'move-job' | undefined;

export function CandidatePage({ id }: { id: string }) {
  const [load, reload] = useLoad(() => fetchCandidate(id), [id]);
  const [thresholds, setThresholds] = useState<Record<string, number>>();
  const [live, setLive] = useState<{ message: ComponentChildren; kind: 'success' | 'warning' }>();
  const [receipt, setReceipt] = useState<string>();
  const [editing, setEditing] = useState(false);
  const [dialog, setDialog] = useState<Dialog>();
  // Bumped by every action, so the person's jobs are read again (adding a job changes no field here).
  const [version, setVersion] = useState(0);
  const editButton = useRef<HTMLButtonElement>(null);
  const can = useMay();
  const moves = can('POST /api/pipeline');
  useEffect(() => {
    fetchThresholds().then(setThresholds, () => setThresholds(undefined));
  }, []);

  const onMoved = async (o: MoveOutcome) => {
    if (o.kind === 'moved') setLive({ message: `Moved to ${stageLabel(o.to)}.`, kind: 'success' });
    else setLive({ message: o.message, kind: 'warning' });
    if (o.kind !== 'failed') await reload();
  };
  // Closing the form returns focus to the action that opened it, in the render that removes the
  // form (a layout effect). Moved a frame later, focus rested on the page's body in between, and a
  // key pressed then went nowhere.
  const refocusEdit = useRef(false);
  useLayoutEffect(() => {
    if (editing || !refocusEdit.current) return;
    refocusEdit.current = false;
    editButton.current?.focus();
  }, [editing]);
  const closeEdit = () => {
    refocusEdit.current = true;
    setEditing(false);
  };
  const said = async (message: ComponentChildren, ok = true) => {
    setLive({ message, kind: ok ? 'success' : 'warning' });
    setVersion((v) => v + 1);
    await reload();
  };

  return (
    <>
      <PageTitle title={load.state === 'ok' ? displayName(load.data) : 'Candidate'}>
        {load.state === 'ok' ? displayName(load.data) : 'Candidate'}
      </PageTitle>
      <p class="lead">
        <Link href="/candidates">All candidates</Link>
      </p>
      <Live message={live?.message} kind={live?.kind} />
      <Loaded load={load} what="the candidate" retry={reload}>
        {(c) => (
          <>
            <section class="card profile-head" aria-label="Contact and job">
              <Contact c={c} />
              <Job c={c} thresholds={thresholds} />
              <PersonJobs c={c} version={version} />
              <div class="profile-actions">
                {!c.erased_at && can('PATCH /api/candidates/{id}') && (
                  <button
                    type="button"
                    ref={editButton}
                    aria-expanded={editing}
                    aria-controls={editing ? 'profile-edit' : undefined}
                    onClick={() => (editing ? closeEdit() : setEditing(true))}
                  >
                    Edit profile
                  </button>
                )}
                {c.stage !== 'rejected' && moves && (
                  <button type="button" onClick={() => setDialog('reject')}>
                    Reject…
                  </button>
                )}
                {!c.erased_at && can('POST /api/candidates') && (
                  <button type="button" onClick={() => setDialog('add-job')}>
                    Add to another job…
                  </button>
                )}
                {can('PATCH /api/candidates/{id}') && (
                  <button type="button" onClick={() => setDialog('move-job')}>
                    Move to another job…
                  </button>
                )}
              </div>
              {moves && <MoveTo candidate={c} onDone={onMoved} />}
            </section>
            {editing && !c.erased_at && can('PATCH /api/candidates/{id}') && (
              <div id="profile-edit">
                <EditProfile
                  c={c}
                  onClose={closeEdit}
                  onSaved={async () => {
                    closeEdit();
                    setLive({ message: 'Profile saved.', kind: 'success' });
                    await reload();
                  }}
                />
              </div>
            )}
            {c.erased_at && (
              <>
                {receipt && <Notice kind="success">{receipt}</Notice>}
                <Notice>
                  This candidate's personal data was erased on <When iso={c.erased_at} />. The stage, requisition and history stay.
                </Notice>
              </>
            )}
            {PROFILE_SECTIONS.map((Section, i) => (
              <Section key={i} candidate={c} reload={reload} />
            ))}
            <History c={c} />
            {!c.erased_at && (
              <Erase
                c={c}
                onErased={async (message) => {
                  setReceipt(message);
                  await reload();
                }}
              />
            )}
            <RejectDialog c={c} open={dialog === 'reject'} onClose={() => setDialog(undefined)} onDone={said} />
            <AddToJobDialog c={c} open={dialog === 'add-job'} onClose={() => setDialog(undefined)} onDone={said} />
            <MoveJobDialog c={c} open={dialog === 'move-job'} onClose={() => setDialog(undefined)} onDone={said} />
          </>
        )}
      </Loaded>
    </>
  );
}

const displayName = (c: CandidateDetail) => (c.erased_at ? 'Erased candidate' : c.name);

/** Only http(s) links are followed: a stored `javascript:` URL must never become a live link. */
const safeHref = (url: string) => {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : undefined;
  } catch {
    return undefined;
  }
};

function Contact({ c }: { c: CandidateDetail }) {
  if (c.erased_at) return null;
  const resume = c.resume_url ? safeHref(c.resume_url) : undefined;
  return (
    <dl class="facts contact">
      <dt>Email</dt>
      <dd>{c.email ? <a href={`mailto:${c.email}`}>{c.email}</a> : 'None'}</dd>
      <dt>Phone</dt>
      <dd>{c.phone ? <a href={`tel:${c.phone.replace(/[^\d+]/g, '')}`}>{c.phone}</a> : 'None'}</dd>
      <dt>Resume</dt>
      <dd>
        {resume ? (
          <a href={resume} target="_blank" rel="noopener noreferrer">
            Open the resume<span class="sr-only"> (opens in a new tab)</span>
          </a>
        ) : (
          (c.resume_url ?? 'None')
        )}
      </dd>
    </dl>
  );
}

/** The job this candidate is for, their stage in it, for how long, and the stuck mark. */
function Job({ c, thresholds }: { c: CandidateDetail; thresholds?: Record<string, number> }) {
  const days = daysBetween(c.stage_entered_at);
  return (
    <dl class="facts">
      <dt>Job</dt>
      <dd>{c.req_id ? <Link href={`/requisitions/${c.req_id}`}>{c.req_title ?? 'The requisition'}</Link> : 'None'}</dd>
      <dt>Now in</dt>
      <dd>
        <strong>{stageLabel(c.stage)}</strong>, for {daysText(days)}
        {isStuck(c.stage, days, thresholds) && <span class="badge stuck"> Stuck</span>}
        {c.rejection && (
          <span class="hint">
            {' '}
            ({c.rejection.label}
            {c.rejection.note ? `: ${c.rejection.note}` : ''})
          </span>
        )}
      </dd>
      <dt>Source</dt>
      <dd>{sourceLabel(c.source)}</dd>
    </dl>
  );
}

/**
 * Every job the person is in: each candidate of theirs (GET /api/people/{id}), its requisition
 * and stage, linked to its page; this one marked, not linked. Read again after every action.
 */
function PersonJobs({ c, version }: { c: CandidateDetail; version: number }) {
  const personId = c.person_id;
  const [load, reload] = useLoad(
    async () => (personId ? (await unwrap(api.GET('/api/people/{id}', { params: { path: { id: personId } } }))).data : undefined),
    [personId, c.updated_at, version],
  );
  if (!personId) return null;
  return (
    <section aria-labelledby="jobs-h" class="person-jobs">
      <h2 id="jobs-h">Every job they are in</h2>
      <Loaded load={load} what="their jobs" retry={reload}>
        {(person) => (
          <ul class="plain">
            {person?.candidates.map((k) => (
              <li key={k.id}>
                {k.id === c.id ? (
                  // This page: its requisition is linked in the header already.
                  <strong>{k.req_title ?? 'No requisition'}</strong>
                ) : (
                  <Link href={`/candidates/${k.id}`}>{k.req_title ?? 'No requisition'}</Link>
                )}
                : {stageLabel(k.stage)}
                {k.id === c.id && <span class="hint"> (this page)</span>}
              </li>
            ))}
          </ul>
        )}
      </Loaded>
    </section>
  );
}
