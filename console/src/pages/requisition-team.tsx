/**
 * A requisition's team: its owner and its hiring managers, shown by email, and edited by those the
 * permission table lets change a requisition. The hiring managers named see this requisition and
 * its candidates.
 */
import { useState } from 'preact/hooks';
import { may } from '../../../lib/permissions';
import { api, errorText, unwrap } from '../api/client';
import { Live, type RequisitionDetail } from '../recruiting';
import { useSession } from '../session';
import { Loaded, useLoad } from '../ui';

const fetchMembers = async () => (await unwrap(api.GET('/api/members'))).data;
type Member = Awaited<ReturnType<typeof fetchMembers>>[number];

export function Team({ r, onChanged }: { r: RequisitionDetail; onChanged: () => Promise<void> }) {
  const { session } = useSession();
  const [load, reload] = useLoad(fetchMembers, []);
  return (
    <section class="card" aria-labelledby="team-h">
      <h2 id="team-h">Team</h2>
      <Loaded load={load} what="the members" retry={reload}>
        {(members) =>
          may(session.user.role, 'PATCH /api/requisitions/{id}') ? (
            <TeamForm r={r} members={members} onChanged={onChanged} />
          ) : (
            <TeamFacts r={r} members={members} />
          )
        }
      </Loaded>
    </section>
  );
}

const emailOf = (members: Member[], id: string) => members.find((m) => m.id === id)?.email ?? 'a former member';

function TeamFacts({ r, members }: { r: RequisitionDetail; members: Member[] }) {
  return (
    <dl class="facts">
      <dt>Recruiter</dt>
      <dd>{r.recruiter_id ? emailOf(members, r.recruiter_id) : 'none named'}</dd>
      <dt>Hiring managers</dt>
      <dd>{r.hiring_manager_ids.length ? r.hiring_manager_ids.map((id) => emailOf(members, id)).join(', ') : 'none named'}</dd>
    </dl>
  );
}

function TeamForm({ r, members, onChanged }: { r: RequisitionDetail; members: Member[]; onChanged: () => Promise<void> }) {
  const active = members.filter((m) => !m.deactivated_at);
  const [recruiter, setRecruiter] = useState(r.recruiter_id ?? '');
  const [managers, setManagers] = useState<string[]>(r.hiring_manager_ids);
  const [live, say] = useState<{ message: string; kind: 'success' | 'warning' }>();
  const [busy, setBusy] = useState(false);
  return (
    <form
      aria-label="Team"
      onSubmit={async (e) => {
        e.preventDefault();
        setBusy(true);
        try {
          await unwrap(
            api.PATCH('/api/requisitions/{id}', {
              params: { path: { id: r.id } },
              body: { recruiter_id: recruiter || null, hiring_manager_ids: managers },
            }),
          );
          say({ message: 'Team saved.', kind: 'success' });
          await onChanged();
        } catch (err) {
          say({ message: errorText(err), kind: 'warning' });
        } finally {
          setBusy(false);
        }
      }}
    >
      <div class="field">
        <label for="team-recruiter">Recruiter</label>
        <select id="team-recruiter" value={recruiter} onChange={(e) => setRecruiter(e.currentTarget.value)}>
          <option value="">None named</option>
          {active.map((m) => (
            <option key={m.id} value={m.id}>
              {m.email}
            </option>
          ))}
        </select>
      </div>
      <fieldset>
        <legend>Hiring managers (they see this requisition and its candidates)</legend>
        {active
          .filter((m) => m.role === 'hiring_manager' || managers.includes(m.id))
          .map((m) => (
            <label key={m.id} class="check">
              <input
                type="checkbox"
                checked={managers.includes(m.id)}
                onChange={(e) => setManagers(e.currentTarget.checked ? [...managers, m.id] : managers.filter((x) => x !== m.id))}
              />{' '}
              {m.email}
            </label>
          ))}
      </fieldset>
      <button type="submit" disabled={busy}>
        Save team
      </button>
      <Live message={live?.message} kind={live?.kind} />
    </form>
  );
}
