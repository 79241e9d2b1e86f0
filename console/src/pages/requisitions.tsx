/** Requisitions: the list of one status (in the URL), counts, headcount and hires; "New requisition". */
import { useEffect, useState } from 'preact/hooks';
import { api, unwrap } from '../api/client';
import { jobTypeLabel, reqStatusLabel } from '../labels';
import { Link, navigate, useLocation } from '../router';
import {
  CREATE_STATUSES,
  Field,
  FormDialog,
  fetchRequisitions,
  formErrors,
  JOB_TYPES,
  noErrors,
  REQ_STATUSES,
  type FormErrors,
  type ReqStatus,
} from '../recruiting';
import { useMay } from '../session';
import { Empty, Loaded, Notice, PageTitle, useLoad } from '../ui';

export function Requisitions() {
  const { query } = useLocation();
  const raw = query.get('status');
  const status: ReqStatus = (REQ_STATUSES as readonly string[]).includes(raw ?? '') ? (raw as ReqStatus) : 'open';
  const [load, reload] = useLoad(() => fetchRequisitions(status), [status]);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<{ id: string; title: string }>();
  const creates = useMay()('POST /api/requisitions');

  return (
    <>
      <PageTitle title="Requisitions">Requisitions</PageTitle>
      {creates && (
        <div class="page-actions">
          <button type="button" class="primary" onClick={() => setCreating(true)}>
            New requisition
          </button>
        </div>
      )}
      {created && (
        <Notice kind="success">
          “{created.title}” was created. <Link href={`/requisitions/${created.id}`}>Open its board</Link>.
        </Notice>
      )}
      <div class="field narrow-field">
        <label for="req-status">Status</label>
        <select
          id="req-status"
          value={status}
          onChange={(e) => navigate(e.currentTarget.value === 'open' ? '/requisitions' : `/requisitions?status=${e.currentTarget.value}`)}
        >
          {REQ_STATUSES.map((s) => (
            <option key={s} value={s}>
              {reqStatusLabel(s)}
            </option>
          ))}
        </select>
      </div>
      <Loaded load={load} what="the requisitions" retry={reload}>
        {(rows) =>
          rows.length === 0 ? (
            <Empty>
              {status === 'open' && !creates
                ? 'No open requisitions name you on their team. A recruiter or an admin adds you to a requisition’s team.'
                : status === 'open'
                  ? 'No open requisitions. Create one with “New requisition”; candidates can be added to it once it is open.'
                  : `No ${reqStatusLabel(status).toLowerCase()} requisitions. Choose another status to see the others.`}
            </Empty>
          ) : (
            <table class="stack">
              <caption class="sr-only">{reqStatusLabel(status)} requisitions, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Title</th>
                  <th scope="col">Department</th>
                  <th scope="col">Location</th>
                  <th scope="col">Status</th>
                  <th scope="col" class="num">
                    Candidates
                  </th>
                  <th scope="col" class="num">
                    Offers pending
                  </th>
                  <th scope="col" class="num">
                    Hires / headcount
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.id}>
                    <td data-label="Title">
                      <Link href={`/requisitions/${r.id}`}>{r.title}</Link>
                      {r.job_type && <div class="hint">{jobTypeLabel(r.job_type)}</div>}
                    </td>
                    <td data-label="Department">{r.department ?? '—'}</td>
                    <td data-label="Location">{r.location ?? '—'}</td>
                    <td data-label="Status">
                      <span class={`badge req-${r.status}`}>{reqStatusLabel(r.status)}</span>
                    </td>
                    <td data-label="Candidates" class="num">
                      {r.candidate_count}
                    </td>
                    <td data-label="Offers pending" class="num">
                      {r.offers_pending}
                    </td>
                    <td data-label="Hires / headcount" class="num">
                      {r.hires ?? '?'} / {r.headcount ?? 'no limit'}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </Loaded>
      <NewRequisition
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(r) => {
          setCreating(false);
          setCreated(r);
          void reload();
        }}
      />
    </>
  );
}

const FIELDS = ['title', 'department', 'location', 'job_type', 'headcount', 'status'] as const;

function NewRequisition({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: (r: { id: string; title: string }) => void;
}) {
  const empty = { title: '', department: '', location: '', job_type: '', headcount: '1', status: 'open' };
  const [v, setV] = useState(empty);
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (open) {
      setV(empty);
      setErrors(noErrors);
    }
  }, [open]);

  const submit = async () => {
    if (!v.title.trim()) return setErrors({ fields: { title: 'Enter a title.' } });
    const headcount = Number(v.headcount);
    if (!Number.isInteger(headcount) || headcount < 1) return setErrors({ fields: { headcount: 'Enter a whole number of 1 or more.' } });
    setBusy(true);
    setErrors(noErrors);
    try {
      const body = {
        title: v.title.trim(),
        headcount,
        status: v.status as (typeof CREATE_STATUSES)[number],
        ...(v.department.trim() && { department: v.department.trim() }),
        ...(v.location.trim() && { location: v.location.trim() }),
        ...(v.job_type && { job_type: v.job_type as (typeof JOB_TYPES)[number] }),
      };
      const { data } = await unwrap(api.POST('/api/requisitions', { body }));
      onCreated({ id: data.id, title: data.title });
    } catch (err) {
      setErrors(formErrors(err, FIELDS));
    } finally {
      setBusy(false);
    }
  };

  return (
    <FormDialog
      open={open}
      title="New requisition"
      submitLabel="Create requisition"
      busy={busy}
      error={errors.general}
      onSubmit={submit}
      onClose={onClose}
    >
      <RequisitionFields values={v} onChange={(p) => setV({ ...v, ...p })} errors={errors} idPrefix="new-req" />
      <div class="field">
        <label for="new-req-status">Start as</label>
        <select id="new-req-status" value={v.status} onChange={(e) => setV({ ...v, status: e.currentTarget.value })}>
          {CREATE_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s === 'open' ? 'Open (takes candidates now)' : 'Draft'}
            </option>
          ))}
        </select>
      </div>
    </FormDialog>
  );
}

export interface ReqValues {
  title: string;
  department: string;
  location: string;
  job_type: string;
  headcount: string;
}

/** The editable fields of a requisition, shared by "New requisition" and the requisition's page. */
export function RequisitionFields({
  values,
  onChange,
  errors,
  idPrefix,
}: {
  values: ReqValues;
  onChange: (p: Partial<ReqValues>) => void;
  errors: FormErrors;
  idPrefix: string;
}) {
  return (
    <>
      <Field
        id={`${idPrefix}-title`}
        label="Title"
        required
        value={values.title}
        onInput={(title) => onChange({ title })}
        error={errors.fields.title}
      />
      <Field
        id={`${idPrefix}-department`}
        label="Department"
        value={values.department}
        onInput={(department) => onChange({ department })}
        error={errors.fields.department}
      />
      <Field
        id={`${idPrefix}-location`}
        label="Location"
        value={values.location}
        onInput={(location) => onChange({ location })}
        error={errors.fields.location}
      />
      <div class="field">
        <label for={`${idPrefix}-job-type`}>
          Job type<span class="optional"> (optional)</span>
        </label>
        <select
          id={`${idPrefix}-job-type`}
          value={values.job_type}
          onChange={(e) => onChange({ job_type: e.currentTarget.value })}
          aria-invalid={errors.fields.job_type ? 'true' : undefined}
        >
          <option value="">Not set</option>
          {JOB_TYPES.map((t) => (
            <option key={t} value={t}>
              {jobTypeLabel(t)}
            </option>
          ))}
        </select>
        {errors.fields.job_type && <p class="field-error">{errors.fields.job_type}</p>}
      </div>
      <Field
        id={`${idPrefix}-headcount`}
        label="Headcount"
        type="number"
        required
        value={values.headcount}
        onInput={(headcount) => onChange({ headcount })}
        error={errors.fields.headcount}
        hint="How many people to hire; it is filled once that many are placed."
      />
    </>
  );
}
