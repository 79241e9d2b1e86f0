/** One candidate: the editable profile, the current stage with "Move to…", the stage history. */
import { useEffect, useState } from 'preact/hooks';
import { api, unwrap } from '../api/client';
import { stageLabel } from '../labels';
import { Link } from '../router';
import {
  actorText,
  daysBetween,
  daysText,
  Field,
  fetchCandidate,
  fetchThresholds,
  formErrors,
  isStuck,
  Live,
  MoveTo,
  noErrors,
  type CandidateDetail,
  type FormErrors,
  type MoveOutcome,
} from '../recruiting';
import { isAdmin, useSession } from '../session';
import { ConfirmDialog, Loaded, Notice, PageTitle, When, useLoad } from '../ui';
import { Notes } from '../notes';
import { Activity } from '../activity';

export function CandidatePage({ id }: { id: string }) {
  const [load, reload] = useLoad(() => fetchCandidate(id), [id]);
  const [thresholds, setThresholds] = useState<Record<string, number>>();
  const [live, setLive] = useState<{ message: string; kind: 'success' | 'warning' }>();
  const [receipt, setReceipt] = useState<string>();
  useEffect(() => {
    fetchThresholds().then(setThresholds, () => setThresholds(undefined));
  }, []);

  const onMoved = async (o: MoveOutcome) => {
    if (o.kind === 'moved') setLive({ message: `Moved to ${stageLabel(o.to)}.`, kind: 'success' });
    else setLive({ message: o.message, kind: 'warning' });
    if (o.kind !== 'failed') await reload();
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
            <section class="card" aria-labelledby="stage-h">
              <h2 id="stage-h">Stage</h2>
              <StageNow c={c} thresholds={thresholds} />
              <MoveTo candidate={c} onDone={onMoved} />
            </section>
            {c.erased_at ? (
              <>
                {receipt && <Notice kind="success">{receipt}</Notice>}
                <Notice>
                  This candidate's personal data was erased on <When iso={c.erased_at} />. The stage, requisition and history stay.
                </Notice>
              </>
            ) : (
              <Profile c={c} onSaved={reload} />
            )}
            <History c={c} />
            {c.person_id && <Notes personId={c.person_id} candidateId={c.id} />}
            {c.person_id && <Activity personId={c.person_id} />}
            {!c.erased_at && (
              <Erase
                c={c}
                onErased={async (message) => {
                  setReceipt(message);
                  await reload();
                }}
              />
            )}
          </>
        )}
      </Loaded>
    </>
  );
}

const displayName = (c: CandidateDetail) => (c.erased_at ? 'Erased candidate' : c.name);

/**
 * Erasure, for admins: the name must be typed to confirm, as the change cannot be undone. The
 * receipt says how many stored copies went.
 */
function Erase({ c, onErased }: { c: CandidateDetail; onErased: (receipt: string) => Promise<void> }) {
  const { session } = useSession();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  if (!isAdmin(session)) return null;
  return (
    <section class="card" aria-labelledby="erase-h">
      <h2 id="erase-h">Erase personal data</h2>
      <p class="hint">
        Removes the name, email, phone and resume link here and from every copy the service keeps (search, webhook bodies, delivery logs,
        retries). The stage, requisition, history and counts stay. Receivers get a <code>candidate.erased</code> event.
      </p>
      <button
        type="button"
        class="danger"
        onClick={() => {
          setTyped('');
          setOpen(true);
        }}
      >
        Erase this candidate…
      </button>
      <ConfirmDialog
        open={open}
        title="Erase this candidate's personal data?"
        confirmLabel="Erase for good"
        danger
        confirmDisabled={typed.trim() !== c.name.trim()}
        onClose={() => setOpen(false)}
        onConfirm={async () => {
          const r = (await unwrap(api.POST('/api/candidates/{id}/erase', { params: { path: { id: c.id } } }))).data;
          const copies = Object.values(r.scrubbed).reduce((a, b) => a + b, 0);
          await onErased(`Erased. ${copies} stored item${copies === 1 ? '' : 's'} scrubbed.`);
        }}
      >
        <p>This cannot be undone. Type the candidate's name to confirm.</p>
        <div class="field">
          <label for="erase-confirm">Name</label>
          <input
            id="erase-confirm"
            type="text"
            autoComplete="off"
            value={typed}
            placeholder={c.name}
            onInput={(e) => setTyped(e.currentTarget.value)}
          />
        </div>
      </ConfirmDialog>
    </section>
  );
}

function StageNow({ c, thresholds }: { c: CandidateDetail; thresholds?: Record<string, number> }) {
  const days = daysBetween(c.stage_entered_at);
  return (
    <dl class="facts">
      <dt>Now in</dt>
      <dd>
        <strong>{stageLabel(c.stage)}</strong>, for {daysText(days)}
        {isStuck(c.stage, days, thresholds) && <span class="badge stuck"> Stuck</span>}
      </dd>
      <dt>Requisition</dt>
      <dd>{c.req_id ? <Link href={`/requisitions/${c.req_id}`}>{c.req_title ?? 'The requisition'}</Link> : 'None'}</dd>
    </dl>
  );
}

const PROFILE = ['name', 'email', 'phone', 'resume_url'] as const;
type ProfileField = (typeof PROFILE)[number];
const LABELS: Record<ProfileField, string> = { name: 'Name', email: 'Email', phone: 'Phone', resume_url: 'Resume URL' };
const TYPES = { name: 'text', email: 'email', phone: 'tel', resume_url: 'url' } as const;

function Profile({ c, onSaved }: { c: CandidateDetail; onSaved: () => Promise<void> }) {
  const initial = () => Object.fromEntries(PROFILE.map((f) => [f, c[f] ?? ''])) as Record<ProfileField, string>;
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState<string>();
  useEffect(() => setValues(initial()), [c.id, c.updated_at]);

  const submit = async (e: Event) => {
    e.preventDefault();
    setSaved(undefined);
    const body: Partial<Record<ProfileField, string | null>> = {};
    for (const f of PROFILE) {
      const v = values[f].trim();
      if (v === (c[f] ?? '')) continue;
      // An emptied optional field is cleared; the name cannot be.
      body[f] = v === '' && f !== 'name' ? null : v;
    }
    if (Object.keys(body).length === 0) return setSaved('Nothing changed.');
    setBusy(true);
    setErrors(noErrors);
    try {
      await unwrap(api.PATCH('/api/candidates/{id}', { params: { path: { id: c.id } }, body: body as { name?: string } }));
      setSaved('Profile saved.');
      await onSaved();
    } catch (err) {
      setErrors(formErrors(err, PROFILE)); // what was typed stays
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="card" onSubmit={submit} aria-labelledby="profile-h" noValidate>
      <h2 id="profile-h">Profile</h2>
      <div class="grid-fields">
        {PROFILE.map((f) => (
          <Field
            key={f}
            id={`profile-${f}`}
            label={LABELS[f]}
            type={TYPES[f]}
            required={f === 'name'}
            value={values[f]}
            onInput={(v) => setValues({ ...values, [f]: v })}
            error={errors.fields[f]}
            hint={f === 'name' ? undefined : 'Empty it to remove it.'}
          />
        ))}
      </div>
      {errors.general && (
        <p class="alert error" role="alert">
          {errors.general}
        </p>
      )}
      {saved && <Notice kind="success">{saved}</Notice>}
      <button type="submit" class="primary" disabled={busy}>
        {busy ? 'Saving…' : 'Save profile'}
      </button>
    </form>
  );
}

function History({ c }: { c: CandidateDetail }) {
  const stays = [...c.stage_history].reverse(); // newest first: the current stage leads
  return (
    <section aria-labelledby="history-h">
      <h2 id="history-h">Stage history</h2>
      <ol class="timeline">
        {stays.map((s) => (
          <li key={s.entered_at + s.stage}>
            <h3>{stageLabel(s.stage)}</h3>
            <dl class="facts">
              <dt>Entered</dt>
              <dd>
                <When iso={s.entered_at} />
              </dd>
              <dt>Left</dt>
              <dd>{s.exited_at ? <When iso={s.exited_at} /> : 'Still here'}</dd>
              <dt>Days</dt>
              <dd>{daysBetween(s.entered_at, s.exited_at)}</dd>
              <dt>Moved by</dt>
              <dd>{s.from_stage ? `${actorText(s.actor)} (from ${stageLabel(s.from_stage)})` : '— (added in this stage)'}</dd>
            </dl>
          </li>
        ))}
      </ol>
    </section>
  );
}
