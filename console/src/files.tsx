/**
 * The Files section of a person's page: upload a document (the bytes go straight to the files
 * bucket through the presigned POST the API hands out, so no request size limit applies), the list
 * with each file's status (read again while a file is being checked), the reader (the extracted
 * text, or the image itself) and the download (the API's 302 to a short-lived link that the browser
 * saves, never opens in this origin).
 */
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { api, errorText, type paths, unwrap } from './api/client';
import { Live } from './recruiting';
import { ConfirmDialog, Empty, ErrorBox, Loaded, useFocusOnShow, useLoad, When } from './ui';

export const KINDS = [
  ['resume', 'CV / resume'],
  ['cover_letter', 'Cover letter'],
  ['portfolio', 'Portfolio'],
  ['other', 'Other'],
] as const;
export type Kind = (typeof KINDS)[number][0];
const kindLabel = (k: Kind) => KINDS.find(([v]) => v === k)?.[1] ?? k;

const REFUSALS: Record<string, string> = {
  file_type_not_allowed: 'its content is not an allowed type',
  file_type_mismatch: 'its content is not the type its name says',
  file_too_large: 'it is too large',
  file_size_mismatch: 'it is not the size announced',
  file_empty: 'it is empty',
  archive_too_large: 'it would expand far past its size',
  file_infected: 'the malware scan found a threat in it',
};

const fetchFiles = (personId: string) => unwrap(api.GET('/api/people/{id}/files', { params: { path: { id: personId } } }));
type PersonFile = Awaited<ReturnType<typeof fetchFiles>>['data'][number];
const fetchLimits = async () => (await unwrap(api.GET('/api/uploads/limits'))).data;
export type Limits = Awaited<ReturnType<typeof fetchLimits>>;
type UploadType = paths['/api/uploads']['post']['requestBody']['content']['application/json']['content_type'];

const downloadHref = (f: { person_id: string; id: string }) => `/api/people/${f.person_id}/files/${f.id}/download`;
const isImage = (f: PersonFile) => f.content_type.startsWith('image/');

export const sizeText = (bytes: number) =>
  bytes < 1024 ? `${bytes} bytes` : bytes < 1024 * 1024 ? `${Math.round(bytes / 1024)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** While a file is being checked the list is read again this often, so its status changes in place. */
const POLL_MS = 1500;

export function Files({ personId }: { personId: string }) {
  const [load, reload] = useLoad(() => fetchFiles(personId), [personId]);
  const [reading, setReading] = useState<string>();
  const [live, setLive] = useState<string>();
  const previous = useRef<Map<string, PersonFile['status']>>(new Map());
  const files = load.state === 'ok' ? load.data.data : [];
  const processing = files.some((f) => f.status === 'processing');

  useEffect(() => {
    if (!processing) return;
    const t = setTimeout(() => void reload(), POLL_MS);
    return () => clearTimeout(t);
  }, [load, processing]);
  // A check that ended is announced once, from the list as read again.
  useEffect(() => {
    const before = previous.current;
    for (const f of files) {
      if (before.get(f.id) === 'processing' && f.status !== 'processing')
        setLive(
          f.status === 'ready'
            ? `${f.filename} is ready.`
            : `${f.filename} was refused: ${REFUSALS[f.refusal_code ?? ''] ?? 'it failed the check'}.`,
        );
    }
    previous.current = new Map(files.map((f) => [f.id, f.status]));
  }, [load]);

  const open = files.find((f) => f.id === reading && f.status === 'ready');
  return (
    <section class="card files" aria-labelledby="files-h">
      <h2 id="files-h">Files</h2>
      <Live message={live} kind="success" />
      <UploadForm
        personId={personId}
        onAttached={async (f) => {
          previous.current.set(f.id, f.status);
          setLive(f.status === 'processing' ? `${f.filename} uploaded; checking it…` : `${f.filename} is already attached.`);
          await reload();
        }}
      />
      <div class="files-body">
        <Loaded load={load} what="the files" retry={reload}>
          {(page) =>
            page.data.length === 0 ? (
              <Empty>No files yet.</Empty>
            ) : (
              <ul class="file-list">
                {page.data.map((f) => (
                  <FileItem
                    key={f.id}
                    file={f}
                    open={f.id === open?.id}
                    onRead={() => setReading(f.id === reading ? undefined : f.id)}
                    onDeleted={async () => {
                      setLive(`${f.filename} deleted.`);
                      if (reading === f.id) setReading(undefined);
                      await reload();
                    }}
                  />
                ))}
              </ul>
            )
          }
        </Loaded>
        {open && <Reader file={open} onClose={() => setReading(undefined)} />}
      </div>
    </section>
  );
}

function FileItem({
  file: f,
  open,
  onRead,
  onDeleted,
}: {
  file: PersonFile;
  open: boolean;
  onRead: () => void;
  onDeleted: () => Promise<void>;
}) {
  const [confirm, setConfirm] = useState(false);
  return (
    <li class="file">
      <span class="file-name">{f.filename}</span>{' '}
      <span class="hint">
        {kindLabel(f.kind)} · {sizeText(f.size)} · <When iso={f.created_at} />
      </span>{' '}
      <span class={`badge file-${f.status}`}>{f.status === 'processing' ? 'Checking…' : f.status === 'ready' ? 'Ready' : 'Refused'}</span>
      {f.status === 'refused' && (
        <span class="hint"> ({REFUSALS[f.refusal_code ?? ''] ?? 'it failed the check'}; its bytes were deleted)</span>
      )}
      <span class="file-actions">
        {f.status === 'ready' && (
          <>
            <button type="button" aria-expanded={open} onClick={onRead}>
              {open ? 'Close' : 'Read'}
              <span class="sr-only"> {f.filename}</span>
            </button>
            <a class="button" href={downloadHref(f)} download>
              Download<span class="sr-only"> {f.filename}</span>
            </a>
          </>
        )}
        <button type="button" onClick={() => setConfirm(true)}>
          Delete<span class="sr-only"> {f.filename}</span>
        </button>
      </span>
      <ConfirmDialog
        open={confirm}
        title="Delete this file?"
        confirmLabel="Delete the file"
        danger
        onClose={() => setConfirm(false)}
        onConfirm={async () => {
          await unwrap(api.DELETE('/api/people/{id}/files/{file_id}', { params: { path: { id: f.person_id, file_id: f.id } } }));
          setConfirm(false);
          await onDeleted();
        }}
      >
        <p>{f.filename} and its text are deleted for good. The audit log records that it was deleted.</p>
      </ConfirmDialog>
    </li>
  );
}

/** The text read out of a file (or the image itself), next to the list, with the original a click away. */
function Reader({ file, onClose }: { file: PersonFile; onClose: () => void }) {
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [load, reload] = useLoad(
    async () =>
      isImage(file)
        ? undefined
        : (await unwrap(api.GET('/api/people/{id}/files/{file_id}/text', { params: { path: { id: file.person_id, file_id: file.id } } })))
            .data,
    [file.id],
  );
  // Opened from its Read button: focus moves to what was opened.
  useFocusOnShow(heading, [file.id]);
  return (
    <section class="reader" aria-labelledby={headingId}>
      <h3 id={headingId} ref={heading} tabIndex={-1}>
        {file.filename}
      </h3>
      <p>
        <a href={downloadHref(file)} download>
          Download the original
        </a>{' '}
        <button type="button" onClick={onClose}>
          Close the reader
        </button>
      </p>
      {isImage(file) ? (
        <img class="reader-image" src={downloadHref(file)} alt={`${file.filename}, as uploaded`} />
      ) : (
        <Loaded load={load} what="the text" retry={reload}>
          {(t) =>
            t?.text ? (
              <>
                {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a long text must scroll by keyboard */}
                <section class="reader-text" tabIndex={0} aria-label={`Text of ${file.filename}`}>
                  <pre>{t.text}</pre>
                </section>
                {t.truncated && <p class="hint">The text was cut at 256 KB; download the original for the rest.</p>}
              </>
            ) : (
              <Empty>No text could be read from this file; download the original.</Empty>
            )
          }
        </Loaded>
      )}
    </section>
  );
}

/** The content type to declare: the browser's, else the one the limits give the file's extension. */
export function declaredType(file: File, limits: Limits): UploadType | undefined {
  // The limits list exactly the types an upload accepts.
  if (limits.types.some((t) => t.content_type === file.type)) return file.type as UploadType;
  const ext = file.name.toLowerCase().match(/\.[a-z0-9]+$/)?.[0];
  return ext
    ? (limits.types.find((t) => t.extensions.some((e) => e.toLowerCase() === ext || `.${e.toLowerCase()}` === ext))?.content_type as
        | UploadType
        | undefined)
    : undefined;
}

/**
 * Ask the API for an upload and send the bytes to the bucket, reporting progress (fetch reports
 * none for a request body, XMLHttpRequest does). Answers the upload id, ready to attach.
 * `new_person`: the bytes are also checked on landing, for the suggestions of "Add candidate from a CV".
 */
export async function uploadBytes(
  file: File,
  limits: Limits,
  onProgress: (fraction: number) => void,
  purpose?: 'new_person',
): Promise<string> {
  const contentType = declaredType(file, limits);
  if (!contentType) throw new Error(`${file.name} is not a type that may be uploaded (${limits.types.map((t) => t.name).join(', ')}).`);
  if (file.size > limits.max_bytes)
    throw new Error(`${file.name} is ${sizeText(file.size)}; at most ${sizeText(limits.max_bytes)} may be uploaded.`);
  if (file.size === 0) throw new Error(`${file.name} is empty.`);
  const body = { filename: file.name, content_type: contentType, size: file.size, ...(purpose && { purpose }) };
  const upload = (await unwrap(api.POST('/api/uploads', { body }))).data;
  const form = new FormData();
  for (const [k, v] of Object.entries(upload.fields)) form.append(k, v);
  // Last: S3 ignores every field after the file.
  form.append('file', file);
  await new Promise<void>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', upload.url);
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onload = () =>
      xhr.status >= 200 && xhr.status < 300 ? resolve() : reject(new Error(`The storage refused the file (status ${xhr.status}).`));
    xhr.onerror = () => reject(new Error('Could not reach the file storage. Check your connection and try again.'));
    xhr.send(form);
  });
  onProgress(1);
  return upload.upload_id;
}

/** The limits, read when first needed and kept. */
let limitsOnce: Promise<Limits> | undefined;
export const uploadLimits = () => {
  limitsOnce ??= fetchLimits().catch((err) => {
    limitsOnce = undefined;
    throw err;
  });
  return limitsOnce;
};

/** The file input, with what may be uploaded and, while the bytes go to storage, their progress. */
export function FilePicker({ id, label, busy, progress }: { id: string; label: string; busy: boolean; progress: number | undefined }) {
  const [limits] = useLoad(uploadLimits, []);
  const accept =
    limits.state === 'ok'
      ? limits.data.types.flatMap((t) => [t.content_type, ...t.extensions.map((e) => (e.startsWith('.') ? e : `.${e}`))]).join(',')
      : undefined;
  const hintId = `${id}-hint`;
  return (
    <>
      <div class="field">
        <label for={id}>{label}</label>
        <input id={id} name="file" type="file" required accept={accept} disabled={busy} aria-describedby={hintId} />
        <p class="hint" id={hintId}>
          {limits.state === 'ok'
            ? `${limits.data.types.map((t) => t.name).join(', ')}; at most ${sizeText(limits.data.max_bytes)}.`
            : 'PDF, Word, OpenDocument, RTF, text or an image.'}
        </p>
      </div>
      {progress !== undefined && (
        <p>
          <label for={`${id}-progress`}>Uploading</label> <progress id={`${id}-progress`} max={1} value={progress} />{' '}
          {Math.round(progress * 100)}%
        </p>
      )}
    </>
  );
}

function UploadForm({ personId, onAttached }: { personId: string; onAttached: (f: PersonFile) => Promise<void> }) {
  const [kind, setKind] = useState<Kind>('resume');
  const [progress, setProgress] = useState<number>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const submit = async (e: Event) => {
    e.preventDefault();
    const input = form.current?.elements.namedItem('file') as HTMLInputElement | null;
    const file = input?.files?.[0];
    if (!file) return;
    setBusy(true);
    setError(undefined);
    setProgress(0);
    try {
      const uploadId = await uploadBytes(file, await uploadLimits(), setProgress);
      const attached = (
        await unwrap(api.POST('/api/people/{id}/files', { params: { path: { id: personId } }, body: { upload_id: uploadId, kind } }))
      ).data;
      form.current?.reset();
      await onAttached(attached);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
      setProgress(undefined);
    }
  };
  return (
    <form class="upload-form" ref={form} onSubmit={submit}>
      <div class="field">
        <label for="file-kind">Kind of document</label>
        <select id="file-kind" value={kind} disabled={busy} onChange={(e) => setKind(e.currentTarget.value as Kind)}>
          {KINDS.map(([v, label]) => (
            <option key={v} value={v}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <FilePicker id="file-input" label="File" busy={busy} progress={progress} />
      {error && <ErrorBox message={error} />}
      <button type="submit" class="primary" disabled={busy}>
        {busy ? 'Uploading…' : 'Upload'}
      </button>
    </form>
  );
}
