/**
 * "Add candidate from a CV", its first step: pick a CV, upload it with its progress, wait while
 * the service checks it (GET /api/uploads/{id}), then hand the upload and what was found in it
 * (an email, a phone) to the create form, which offers them beside its empty fields.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, errorText, unwrap } from './api/client';
import { FilePicker, uploadBytes, uploadLimits } from './files';
import { FormDialog, Live } from './recruiting';

export interface FromCv {
  uploadId: string;
  filename: string;
  suggestions: { email?: string; phone?: string };
}

/** While the CV is being checked its status is read again this often, for two minutes at most. */
const POLL_MS = 1000;
const POLLS = 120;
const INPUT_ID = 'cv-file';

const uploadStatus = async (id: string) => (await unwrap(api.GET('/api/uploads/{id}', { params: { path: { id } } }))).data;

export function CvUploadDialog({ open, onClose, onReady }: { open: boolean; onClose: () => void; onReady: (cv: FromCv) => void }) {
  const [progress, setProgress] = useState<number>();
  const [checking, setChecking] = useState(false);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  /** Each run's own token: closing the dialog (or starting again) leaves an older run unheard. */
  const run = useRef(0);

  useEffect(() => {
    run.current++;
    const input = document.getElementById(INPUT_ID) as HTMLInputElement | null;
    if (input) input.value = '';
    setProgress(undefined);
    setChecking(false);
    setError(undefined);
    setBusy(false);
  }, [open]);

  const submit = async () => {
    const file = (document.getElementById(INPUT_ID) as HTMLInputElement | null)?.files?.[0];
    if (!file) return setError('Choose the CV to upload.');
    const mine = ++run.current;
    setBusy(true);
    setError(undefined);
    setProgress(0);
    try {
      const uploadId = await uploadBytes(file, await uploadLimits(), setProgress, 'new_person');
      setProgress(undefined);
      setChecking(true);
      let found = await uploadStatus(uploadId);
      for (let polls = 0; found.status === 'processing' && run.current === mine && polls < POLLS; polls++) {
        await new Promise((r) => setTimeout(r, POLL_MS));
        found = await uploadStatus(uploadId);
      }
      if (run.current !== mine) return;
      if (found.status === 'processing') {
        setError(`${file.name} is still being checked. Try again in a moment, or add the candidate and upload the CV from their profile.`);
        return;
      }
      if (found.status === 'refused') {
        setError(`${file.name} was refused: its content is not an allowed type, or not what its name says. Its bytes were deleted.`);
        return;
      }
      onReady({ uploadId, filename: file.name, suggestions: found.suggestions });
    } catch (err) {
      if (run.current === mine) setError(errorText(err));
    } finally {
      if (run.current === mine) {
        setBusy(false);
        setChecking(false);
        setProgress(undefined);
      }
    }
  };

  return (
    <FormDialog
      open={open}
      title="Add a candidate from a CV"
      submitLabel="Upload the CV"
      busy={busy}
      error={error}
      onSubmit={submit}
      onClose={onClose}
    >
      <p>The CV is checked, then the form opens with the email and phone found in it offered for you to use.</p>
      <FilePicker id={INPUT_ID} label="CV" busy={busy} progress={progress} />
      <Live message={checking ? 'Uploaded; checking the CV…' : undefined} />
    </FormDialog>
  );
}
