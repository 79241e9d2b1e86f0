/**
 * The requisition's job posting: the ad (Markdown description, location, remote and where from,
 * the salary range the console asks for, since pay-transparency laws require it in many places),
 * the screening questions, the knockout rules and what screening does, then publish or unpublish.
 * The preview renders the description with the careers page's own Markdown renderer; once the
 * posting is public, the real careers page opens in a new tab. The API checks the posting and
 * its refusal is shown at the field it names.
 */
import { useRef, useState } from 'preact/hooks';
import { ApiError, api, errorText, unwrap } from '../api/client';
import { jobTypeLabel, reqStatusLabel } from '../labels';
import { bodyOf, DraftError, draftOf, fieldId, type Draft, type Posting } from '../posting-draft';
import { JOB_TYPES, Live, type RequisitionDetail } from '../recruiting';
import { useMay, useSession } from '../session';
import { Loaded, useLoad } from '../ui';
import { renderMarkdown } from '../../../lib/careers/markdown';
import { AreaIn, Check, SelectIn, TextIn, type FieldErrors } from './posting-fields';
import { Outcome, Questions, Rules } from './posting-questions';

async function fetchPosting(reqId: string): Promise<Posting | null> {
  try {
    return (await unwrap(api.GET('/api/requisitions/{id}/posting', { params: { path: { id: reqId } } }))).data;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}

export function PostingSection({ r }: { r: RequisitionDetail }) {
  const edits = useMay()('PUT /api/requisitions/{id}/posting');
  const [load, reload] = useLoad(() => fetchPosting(r.id), [r.id]);
  const [said, setSaid] = useState<string>();
  return (
    <section class="card" aria-labelledby="posting-h">
      <h2 id="posting-h">Job posting</h2>
      <Live message={said} kind="success" />
      <Loaded load={load} what="the job posting" retry={reload}>
        {(p) =>
          edits ? (
            <PostingForm
              key={`${p?.version ?? 0}:${r.status}`}
              r={r}
              posting={p}
              onSaving={() => setSaid(undefined)}
              onSaved={async (saved) => {
                await reload();
                setSaid(saved.listed ? 'Posting saved: it is on the careers page.' : 'Posting saved: it is not on the careers page.');
              }}
            />
          ) : p ? (
            <>
              <Status r={r} p={p} />
              <Preview r={r} d={draftOf(p)} listed={p.listed} />
            </>
          ) : (
            <p>No posting yet: a recruiter writes it.</p>
          )
        }
      </Loaded>
    </section>
  );
}

function Status({ r, p }: { r: RequisitionDetail; p: Posting | null }) {
  const text = !p
    ? 'No posting yet. Write the ad and publish it to put the job on the careers page.'
    : p.listed
      ? 'Published: the job is on the careers page and takes applications.'
      : p.published
        ? `Published, but not public: the requisition is ${reqStatusLabel(r.status).toLowerCase()}. It is public again once the requisition is open.`
        : 'Not published: nobody outside the workspace sees it.';
  return (
    <p class={p?.listed ? 'alert success' : 'hint'} id="posting-status">
      {text}
    </p>
  );
}

const REMOTE = [
  ['no', 'On site'],
  ['hybrid', 'Hybrid'],
  ['remote', 'Remote'],
] as const;
const PERIODS = [
  ['year', 'a year'],
  ['month', 'a month'],
  ['hour', 'an hour'],
] as const;

function PostingForm(props: {
  r: RequisitionDetail;
  posting: Posting | null;
  onSaving: () => void;
  onSaved: (p: Posting) => Promise<void>;
}) {
  const { r, posting } = props;
  const [d, setD] = useState<Draft>(() => draftOf(posting));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [general, setGeneral] = useState<string>();
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const set = (patch: Partial<Draft>) => setD((x) => ({ ...x, ...patch }));
  const focus = (id: string) => setTimeout(() => form.current?.querySelector<HTMLElement>(`#${CSS.escape(id)}`)?.focus());

  const save = async (published: boolean) => {
    setGeneral(undefined);
    setErrors({});
    props.onSaving();
    let body: ReturnType<typeof bodyOf>;
    try {
      body = bodyOf(d, published);
    } catch (err) {
      if (!(err instanceof DraftError)) throw err;
      setErrors({ [err.field]: err.message });
      return focus(fieldId(err.field));
    }
    setBusy(true);
    try {
      const saved = await unwrap(api.PUT('/api/requisitions/{id}/posting', { params: { path: { id: r.id } }, body }));
      await props.onSaved(saved.data);
    } catch (err) {
      const field = err instanceof ApiError ? err.detail.field : undefined;
      // A field the form draws gets the sentence beside it; any other refusal above the buttons.
      if (field && form.current?.querySelector(`#${CSS.escape(fieldId(field))}`)) {
        setErrors({ [field]: errorText(err) });
        focus(fieldId(field));
      } else setGeneral(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  const published = posting?.published ?? false;
  return (
    <form
      ref={form}
      class="posting-form"
      noValidate
      aria-labelledby="posting-h"
      onSubmit={(e) => {
        e.preventDefault();
        void save(published);
      }}
    >
      <Status r={r} p={posting} />
      <AreaIn
        path="description"
        label="Description (Markdown)"
        rows={8}
        hint="Headings (#), lists (-), **bold**, *italic* and [links](https://…); anything else is shown as text."
        errors={errors}
        value={d.description}
        onInput={(description) => set({ description })}
      />
      <div class="grid-fields">
        <TextIn
          path="location"
          label="Location"
          optional
          hint={r.location ? `The requisition's (${r.location}) when empty.` : undefined}
          errors={errors}
          value={d.location}
          onInput={(location) => set({ location })}
        />
        <SelectIn
          path="remote"
          label="Where the work is done"
          errors={errors}
          value={d.remote}
          options={REMOTE}
          onChange={(remote) => set({ remote })}
        />
        {d.remote !== 'no' && (
          <TextIn
            path="remote_countries"
            label="Countries remote work is allowed from"
            optional
            hint="Two-letter codes such as DE, FR; empty for anywhere."
            errors={errors}
            value={d.countries}
            onInput={(countries) => set({ countries })}
          />
        )}
        <SelectIn
          path="employment_type"
          label="Employment type"
          errors={errors}
          value={d.employment_type}
          options={[
            ['', r.job_type ? `The requisition's (${jobTypeLabel(r.job_type)})` : 'Not stated'],
            ...JOB_TYPES.map((t) => [t, jobTypeLabel(t)] as const),
          ]}
          onChange={(employment_type) => set({ employment_type })}
        />
      </div>
      <fieldset>
        <legend>Salary range</legend>
        <p class="hint">Pay-transparency laws require the range in many places; the careers page and its search data show it.</p>
        {!d.noSalary && (
          <div class="grid-fields">
            <TextIn
              path="salary.min"
              label="From"
              type="number"
              inputMode="decimal"
              errors={errors}
              value={d.salary.min}
              onInput={(min) => set({ salary: { ...d.salary, min } })}
            />
            <TextIn
              path="salary.max"
              label="To"
              type="number"
              inputMode="decimal"
              errors={errors}
              value={d.salary.max}
              onInput={(max) => set({ salary: { ...d.salary, max } })}
            />
            <TextIn
              path="salary.currency"
              label="Currency"
              hint="An ISO 4217 code such as EUR."
              errors={errors}
              value={d.salary.currency}
              onInput={(currency) => set({ salary: { ...d.salary, currency } })}
            />
            <SelectIn
              path="salary.period"
              label="Per"
              errors={errors}
              value={d.salary.period}
              options={PERIODS}
              onChange={(period) => set({ salary: { ...d.salary, period } })}
            />
          </div>
        )}
        <Check id="pe-no-salary" label="State no salary range" checked={d.noSalary} onChange={(noSalary) => set({ noSalary })} />
      </fieldset>
      <Questions d={d} set={set} errors={errors} focus={focus} />
      <Rules d={d} set={set} errors={errors} focus={focus} />
      <Outcome d={d} set={set} errors={errors} />
      {general && (
        <p class="alert error" role="alert">
          {general}
        </p>
      )}
      <div class="actions">
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Saving…' : posting ? 'Save posting' : 'Save as draft'}
        </button>
        <button type="button" disabled={busy} onClick={() => void save(!published)}>
          {published ? 'Unpublish' : 'Publish'}
        </button>
      </div>
      <Preview r={r} d={d} listed={posting?.listed ?? false} />
    </form>
  );
}

const money = (n: string, currency: string) => {
  const v = Number(n);
  if (n.trim() === '' || !Number.isFinite(v)) return '…';
  try {
    return new Intl.NumberFormat(undefined, {
      style: 'currency',
      currency: currency.trim().toUpperCase(),
      maximumFractionDigits: 2,
    }).format(v);
  } catch {
    return `${v} ${currency}`;
  }
};

/** The job as its careers page shows it: the facts and the description through the page's own renderer. */
function Preview({ r, d, listed }: { r: RequisitionDetail; d: Draft; listed: boolean }) {
  const { slug } = useSession().session.tenant;
  const where = d.location.trim() || r.location;
  const remote =
    d.remote === 'no'
      ? null
      : `${d.remote === 'remote' ? 'Remote' : 'Hybrid'}${d.countries.trim() ? ` (${d.countries.trim().toUpperCase()})` : ''}`;
  const type = d.employment_type || r.job_type;
  const href = `/careers/${encodeURIComponent(slug)}/jobs/${r.id}`;
  return (
    <details class="posting-preview">
      <summary>Preview of the careers page</summary>
      <article aria-label="Preview of the job page">
        <h3>{r.title}</h3>
        <p class="hint">
          {[
            where,
            remote,
            type && jobTypeLabel(type),
            !d.noSalary &&
              `${money(d.salary.min, d.salary.currency)} to ${money(d.salary.max, d.salary.currency)} ${PERIODS.find(([p]) => p === d.salary.period)?.[1]}`,
          ]
            .filter(Boolean)
            .join(' · ')}
        </p>
        {/* Safe to insert: the renderer escapes everything first and produces only its own markup. */}
        <div
          class="posting-body"
          dangerouslySetInnerHTML={{ __html: d.description.trim() ? renderMarkdown(d.description, 4) : '<p>No description yet.</p>' }}
        />
      </article>
      {listed ? (
        <p>
          <a href={href} target="_blank" rel="noopener noreferrer">
            Open the careers page (opens in a new tab)
          </a>
        </p>
      ) : (
        <p class="hint">The careers page shows the job once it is published and the requisition is open.</p>
      )}
    </details>
  );
}
