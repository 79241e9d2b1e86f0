/** An admin's reset of a member's two-factor sign-in (a lost phone), with its confirmation. */
import { useState } from 'preact/hooks';
import { api, unwrap } from '../api/client';
import { ConfirmDialog } from '../ui';

export function ResetTwoFactor({ member, onDone }: { member: { id: string; email: string }; onDone: (notice: string) => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" aria-label={`Reset two-factor of ${member.email}`} onClick={() => setOpen(true)}>
        Reset two-factor
      </button>
      <ConfirmDialog
        open={open}
        title={`Reset the two-factor sign-in of ${member.email}?`}
        confirmLabel="Reset two-factor"
        danger
        onClose={() => setOpen(false)}
        onConfirm={async () => {
          await unwrap(api.POST('/api/members/{id}/reset-two-factor', { params: { path: { id: member.id } } }));
          onDone(`${member.email}'s two-factor sign-in was reset; they are signed out and sign in with their password alone.`);
        }}
      >
        <p>
          Their authenticator app and recovery codes stop working and they are signed out everywhere. Do this only once you are sure who is
          asking. If the workspace requires two-factor, they set it up again at their next sign-in.
        </p>
      </ConfirmDialog>
    </>
  );
}
