/**
 * "Schedule an interview" on a candidate's page: a step of their requisition's plan, whose duration
 * and default interviewers fill the form; the start as a wall-clock time in a chosen zone (the
 * viewer's own by default); the panel among the active members, each with their own zone where it
 * differs (and the time there, once a start is given); the place; whether the candidate gets an
 * invitation; and the preview of what each recipient will receive. An interviewer already booked
 * then is named, with "Book anyway" to send the same schedule with `allow_conflicts`.
 */
import { useState } from 'preact/hooks';
import { api, ApiError, errorText, unwrap } from './api/client';
import { instantOf, span, viewerZone, zones, type Interview, type Member, type PlanStep } from './interviews';
import { InvitePreview } from './invite-preview';
import { Field, FormDialog } from './recruiting';
import { useSession } from './session';

/** The booked interval a conflict's sentence names (two RFC 3339 instants), if it names one. */
const bookedSpan = (message: string) => message.match(/\d{4}-\d{2}-\d{2}T[\d:.]+Z/g);

export function ScheduleInterview({
  candidateId,
  who,
  steps,
  members,
  onClose,
  onScheduled,
}: {
  candidateId: string;
  who: string;
  steps: PlanStep[];
  members: Member[];
  onClose: () => void;
  onScheduled: (iv: Interview) => Promise<void>;
}) {
  const first = steps[0]!;
  const [stepId, setStepId] = useState(first.id);
  const [start, setStart] = useState('');
  const [minutes, setMinutes] = useState(String(first.duration_minutes));
  const [zone, setZone] = useState(viewerZone());
  const [panel, setPanel] = useState<string[]>(first.interviewers);
  const [location, setLocation] = useState('');
  const [inviteCandidate, setInviteCandidate] = useState(false);
  const { session } = useSession();
  const [error, setError] = useState<string>();
  const [conflict, setConflict] = useState<string>();
  const [busy, setBusy] = useState(false);
  const active = members.filter((m) => m.deactivated_at === null);
  const emailOf = (id: string) => members.find((m) => m.id === id)?.email ?? 'a former member';

  const chooseStep = (id: string) => {
    const step = steps.find((s) => s.id === id);
    setStepId(id);
    if (!step) return;
    // The step's defaults: its duration and its interviewers.
    setMinutes(String(step.duration_minutes));
    setPanel(step.interviewers);
    setConflict(undefined);
  };

  const submit = async (allowConflicts = false) => {
    setError(undefined);
    const at = instantOf(start, zone);
    const duration = Number(minutes);
    if (!at) return setError('Give the date and start time.');
    if (!Number.isInteger(duration) || duration < 5 || duration > 480)
      return setError('The duration is a whole number of minutes, 5 to 480.');
    if (!panel.length) return setError('Choose at least one interviewer.');
    setBusy(true);
    try {
      const body = {
        step_id: stepId,
        start: at.toISOString(),
        end: new Date(at.getTime() + duration * 60_000).toISOString(),
        time_zone: zone,
        interviewers: panel,
        ...(location.trim() && { location: location.trim() }),
        ...(inviteCandidate && { invite_candidate: true }),
        ...(allowConflicts && { allow_conflicts: true }),
      };
      const made = await unwrap(api.POST('/api/candidates/{id}/interviews', { params: { path: { id: candidateId } }, body }));
      setConflict(undefined);
      await onScheduled(made.data);
    } catch (err) {
      const i = err instanceof ApiError ? /^interviewers\[(\d+)\]$/.exec(err.detail.field ?? '') : null;
      if (err instanceof ApiError && err.status === 409 && i) {
        const booked = bookedSpan(err.message);
        setConflict(
          `${emailOf(panel[Number(i[1])]!)} is already booked then${booked?.length === 2 ? ` (${span(booked[0]!, booked[1]!, zone)}, ${zone})` : ''}.`,
        );
      } else setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  // The booking as the form stands, once it names a time: what the preview and the panel's own times read.
  const at = instantOf(start, zone);
  const duration = Number(minutes);
  const booked =
    at && Number.isInteger(duration) && duration > 0
      ? { start: at.toISOString(), end: new Date(at.getTime() + duration * 60_000).toISOString() }
      : undefined;
  const stepName = steps.find((s) => s.id === stepId)?.name ?? first.name;

  return (
    <FormDialog
      open
      title={`Schedule an interview with ${who}`}
      submitLabel="Schedule"
      busy={busy}
      error={
        error ??
        (conflict && (
          <>
            {conflict}{' '}
            <button type="button" onClick={() => submit(true)} disabled={busy}>
              Book anyway
            </button>
          </>
        ))
      }
      onSubmit={() => submit(false)}
      onClose={onClose}
    >
      <div class="field">
        <label for="iv-step">Step</label>
        <select id="iv-step" value={stepId} onChange={(e) => chooseStep(e.currentTarget.value)}>
          {steps.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="iv-start">Starts</label>
        <input
          id="iv-start"
          type="datetime-local"
          required
          value={start}
          aria-describedby="iv-start-hint"
          onInput={(e) => {
            setStart(e.currentTarget.value);
            setConflict(undefined);
          }}
        />
        <p class="hint" id="iv-start-hint">
          In the time zone below.
        </p>
      </div>
      <Field id="iv-minutes" label="Duration in minutes" type="number" required value={minutes} onInput={setMinutes} />
      <div class="field">
        <label for="iv-zone">Time zone</label>
        <select id="iv-zone" value={zone} onChange={(e) => setZone(e.currentTarget.value)} aria-describedby="iv-zone-hint">
          {zones().map((z) => (
            <option key={z} value={z}>
              {z}
            </option>
          ))}
        </select>
        <p class="hint" id="iv-zone-hint">
          Yours is {viewerZone()}. The calendar event is in this zone; an interviewer who set their own reads their invitation and reminder
          in theirs.
        </p>
      </div>
      <fieldset>
        <legend>Interviewers</legend>
        {active.map((m) => (
          <label class="check" key={m.id}>
            <input
              type="checkbox"
              checked={panel.includes(m.id)}
              onChange={(e) => {
                const on = e.currentTarget.checked;
                setPanel((p) => (on ? [...p, m.id] : p.filter((x) => x !== m.id)));
                setConflict(undefined);
              }}
            />{' '}
            {m.email}
            {m.time_zone && m.time_zone !== zone && (
              <span class="hint">
                {' '}
                ({booked ? `${span(booked.start, booked.end, m.time_zone)} ` : ''}
                {m.time_zone})
              </span>
            )}
          </label>
        ))}
      </fieldset>
      <Field id="iv-location" label="Where" value={location} onInput={setLocation} hint="A room, an address or a video link." />
      <label class="check">
        <input type="checkbox" checked={inviteCandidate} onChange={(e) => setInviteCandidate(e.currentTarget.checked)} /> Send {who} an
        invitation too
      </label>
      {booked && panel.length > 0 ? (
        <InvitePreview
          stepName={stepName}
          start={booked.start}
          end={booked.end}
          timeZone={zone}
          location={location.trim() || null}
          panel={panel.map((id) => members.find((m) => m.id === id)).filter((m): m is Member => !!m)}
          {...(inviteCandidate && { candidate: { name: who } })}
          workspace={session.tenant.name}
          candidateName={who}
        />
      ) : (
        <p class="hint">Give the start and the interviewers to preview the invitations.</p>
      )}
    </FormDialog>
  );
}
