/** Members: everyone sees the list and roles; admins add, change roles, remove, reset passwords, clear lockouts. */
import { useState } from 'preact/hooks';
import { api, errorText, unwrap } from '../api/client';
import { ROLES } from '../../../lib/model';
import { isAdmin, useSession } from '../session';
import { ConfirmDialog, Empty, Loaded, Notice, PageTitle, Scroll, ShownOnce, When, useLoad } from '../ui';
import { ResetTwoFactor } from './member-two-factor';

const fetchMembers = async () => (await unwrap(api.GET('/api/members'))).data;
type Member = Awaited<ReturnType<typeof fetchMembers>>[number];
type Role = Member['role'];

const ROLE_LABELS: Record<Role, string> = {
  admin: 'Admin',
  recruiter: 'Recruiter',
  hiring_manager: 'Hiring manager',
  interviewer: 'Interviewer',
};
/** What each role is for; the permission table (docs/permissions.md) has the detail. */
const ROLE_HINTS: Record<Role, string> = {
  admin: 'everything, including members, settings, webhooks, audit log and erasure',
  recruiter: 'every candidate and requisition, imports, tokens within these rights',
  hiring_manager: 'only the requisitions they are on and their candidates; moves stages',
  interviewer: 'only the candidates they interview, without phone',
};

type Pending = { kind: 'remove' | 'reset' | 'deactivate'; member: Member } | undefined;

export function Members() {
  const { session } = useSession();
  const admin = isAdmin(session);
  const [load, reload] = useLoad(fetchMembers);
  const [secret, setSecret] = useState<{ email: string; password: string }>();
  const [pending, setPending] = useState<Pending>();
  const [notice, setNotice] = useState<string>();
  const [rowError, setRowError] = useState<string>();

  const act = async (what: () => Promise<string>) => {
    setNotice(undefined);
    setRowError(undefined);
    try {
      setNotice(await what());
      await reload();
    } catch (err) {
      setRowError(errorText(err));
    }
  };

  return (
    <>
      <PageTitle title="Members">Members</PageTitle>
      <p class="lead">
        {admin
          ? 'People who can sign in to this workspace. Admins manage members, tokens with full access and pipeline settings.'
          : 'People who can sign in to this workspace. Only workspace admins can add or change members.'}
      </p>
      {secret && (
        <ShownOnce
          label={`Temporary password for ${secret.email}`}
          value={secret.password}
          warning="It will not be shown again. Give it to them privately; they must choose their own password when they first sign in."
          onDone={() => setSecret(undefined)}
        />
      )}
      {admin && !secret && (
        <AddMember
          onAdded={(email, password) => {
            setSecret({ email, password });
            void reload();
          }}
        />
      )}
      {notice && <Notice kind="success">{notice}</Notice>}
      {rowError && (
        <p class="alert error" role="alert">
          {rowError}
        </p>
      )}
      <section aria-labelledby="members-h">
        <h2 id="members-h">People</h2>
        <Loaded load={load} what="the members" retry={reload}>
          {(members) =>
            members.length === 0 ? (
              <Empty>Nobody yet. {admin ? 'Add a member above.' : 'Ask a workspace admin to add people.'}</Empty>
            ) : (
              <Scroll label="Members">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Email</th>
                      <th scope="col">Role</th>
                      <th scope="col">Added</th>
                      {admin && <th scope="col">Time zone</th>}
                      {admin && (
                        <th scope="col">
                          <span class="sr-only">Actions</span>
                        </th>
                      )}
                    </tr>
                  </thead>
                  <tbody>
                    {members.map((m) => {
                      const self = m.id === session.user.id;
                      return (
                        <tr key={m.id}>
                          <td>
                            {m.email}
                            {self && <span class="hint"> (you)</span>}
                            {m.must_change_password && <div class="hint">must choose a new password at next sign-in</div>}
                            {m.two_factor_enabled && <div class="hint">two-factor sign-in on</div>}
                          </td>
                          <td>
                            <span class="badge">{ROLE_LABELS[m.role]}</span>
                            {m.deactivated_at && <span class="badge expiring"> deactivated</span>}
                          </td>
                          <td>
                            <When iso={m.created_at} />
                          </td>
                          {admin && <td>{m.time_zone ?? <span class="hint">not set</span>}</td>}
                          {admin && (
                            <td>
                              <div class="row tight">
                                <select
                                  aria-label={`Role of ${m.email}`}
                                  value={m.role}
                                  onChange={(e) => {
                                    const role = e.currentTarget.value as Role;
                                    act(async () => {
                                      await unwrap(api.PATCH('/api/members/{id}', { params: { path: { id: m.id } }, body: { role } }));
                                      return `${m.email} is now ${ROLE_LABELS[role].toLowerCase()}.`;
                                    });
                                  }}
                                >
                                  {ROLES.map((r) => (
                                    <option key={r} value={r}>
                                      {ROLE_LABELS[r]}
                                    </option>
                                  ))}
                                </select>
                                {!self && (
                                  <button
                                    type="button"
                                    aria-label={`Reset password of ${m.email}`}
                                    onClick={() => setPending({ kind: 'reset', member: m })}
                                  >
                                    Reset password
                                  </button>
                                )}
                                <button
                                  type="button"
                                  aria-label={`Clear lockout of ${m.email}`}
                                  onClick={() =>
                                    act(async () => {
                                      const r = await unwrap(api.DELETE('/api/members/{id}/lockout', { params: { path: { id: m.id } } }));
                                      return r.cleared
                                        ? `Cleared ${r.cleared} lockout${r.cleared === 1 ? '' : 's'} for ${m.email}: they can sign in again.`
                                        : `${m.email} was not locked out.`;
                                    })
                                  }
                                >
                                  Clear lockout
                                </button>
                                {m.two_factor_enabled && (
                                  <ResetTwoFactor
                                    member={m}
                                    onDone={(text) => {
                                      setNotice(text);
                                      void reload();
                                    }}
                                  />
                                )}
                                {!self &&
                                  (m.deactivated_at ? (
                                    <button
                                      type="button"
                                      aria-label={`Reactivate ${m.email}`}
                                      onClick={() =>
                                        act(async () => {
                                          await unwrap(api.POST('/api/members/{id}/reactivate', { params: { path: { id: m.id } } }));
                                          return `${m.email} can sign in again.`;
                                        })
                                      }
                                    >
                                      Reactivate
                                    </button>
                                  ) : (
                                    <button
                                      type="button"
                                      aria-label={`Deactivate ${m.email}`}
                                      onClick={() => setPending({ kind: 'deactivate', member: m })}
                                    >
                                      Deactivate
                                    </button>
                                  ))}
                                {!self && (
                                  <button
                                    type="button"
                                    class="danger"
                                    aria-label={`Remove ${m.email}`}
                                    onClick={() => setPending({ kind: 'remove', member: m })}
                                  >
                                    Remove
                                  </button>
                                )}
                              </div>
                            </td>
                          )}
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </Scroll>
            )
          }
        </Loaded>
      </section>
      {admin && (
        <ConfirmDialog
          open={!!pending}
          title={
            pending?.kind === 'remove'
              ? `Remove ${pending.member.email}?`
              : pending?.kind === 'deactivate'
                ? `Deactivate ${pending.member.email}?`
                : `Reset the password of ${pending?.member.email ?? ''}?`
          }
          confirmLabel={
            pending?.kind === 'remove' ? 'Remove member' : pending?.kind === 'deactivate' ? 'Deactivate member' : 'Reset password'
          }
          danger={pending?.kind === 'remove' || pending?.kind === 'deactivate'}
          onClose={() => setPending(undefined)}
          onConfirm={async () => {
            const p = pending!;
            if (p.kind === 'remove') {
              await unwrap(api.DELETE('/api/members/{id}', { params: { path: { id: p.member.id } } }));
              setNotice(`${p.member.email} was removed and can no longer sign in.`);
            } else if (p.kind === 'deactivate') {
              await unwrap(api.POST('/api/members/{id}/deactivate', { params: { path: { id: p.member.id } } }));
              setNotice(`${p.member.email} was deactivated and can no longer sign in.`);
            } else {
              const r = await unwrap(api.POST('/api/members/{id}/reset-password', { params: { path: { id: p.member.id } } }));
              setSecret({ email: p.member.email, password: r.data.temporary_password });
            }
            await reload();
          }}
        >
          {pending?.kind === 'remove' || pending?.kind === 'deactivate' ? (
            <p>
              They are signed out everywhere and can no longer sign in
              {pending.kind === 'deactivate' ? ' until reactivated (they stay in the list and the audit log)' : ''}. Their personal API
              tokens are revoked and stop working within 60 seconds; workspace tokens and webhooks stay.
            </p>
          ) : (
            <p>They are signed out everywhere, any lockout is cleared, and you get a temporary password to give them.</p>
          )}
        </ConfirmDialog>
      )}
    </>
  );
}

function AddMember({ onAdded }: { onAdded: (email: string, password: string) => void }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('recruiter');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  return (
    <form
      class="card"
      aria-labelledby="add-member-h"
      onSubmit={async (e) => {
        e.preventDefault();
        setBusy(true);
        setError(undefined);
        try {
          const r = await unwrap(api.POST('/api/members', { body: { email: email.trim(), role } }));
          setEmail('');
          setRole('recruiter');
          onAdded(r.data.member.email, r.data.temporary_password);
        } catch (err) {
          setError(errorText(err));
        } finally {
          setBusy(false);
        }
      }}
    >
      <h2 id="add-member-h">Add a member</h2>
      <div class="field">
        <label for="member-email">Email</label>
        <input id="member-email" type="email" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
      </div>
      <div class="field">
        <label for="member-role">Role</label>
        <select id="member-role" value={role} onChange={(e) => setRole(e.currentTarget.value as Role)}>
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {ROLE_LABELS[r]}: {ROLE_HINTS[r]}
            </option>
          ))}
        </select>
      </div>
      {error && (
        <p class="alert error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" class="primary" disabled={busy}>
        {busy ? 'Adding…' : 'Add member'}
      </button>
    </form>
  );
}
