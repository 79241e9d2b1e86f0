/**
 * Applying to a public posting: the one public write. Its body is checked here field by field;
 * the answers against the posting's questions (lib/domain/screening-rules.ts validateAnswers) in
 * lib/domain/applications.ts, since only the posting knows them.
 */
import * as z from 'zod/mini';
import { plainText, text } from './fields';
import { DOCS, type Route } from './route';

const PHONE = /^\+?[0-9 ().\-/]{3,40}$/;

export const ApplyParams = z.strictObject({
  slug: z.string({ error: 'slug must be a string' }).check(z.maxLength(64, { error: 'slug must be at most 64 characters' })),
  id: z.string({ error: 'id must be a string' }).check(z.maxLength(64, { error: 'id must be at most 64 characters' })),
});
export type ApplyParams = z.output<typeof ApplyParams>;

/** The honeypot field's name: what form-filling bots fill in, and people never see. */
export const HONEYPOT_FIELD = 'website';

/** The `?src=` of a careers link, or the `source` of the body: a short tag, never free text. */
export const SOURCE_PATTERN = /^[a-z0-9][a-z0-9_-]{0,39}$/;

/** Upload ids as the service makes them. */
export const UPLOAD_ID_PATTERN = /^[A-Za-z0-9-]{1,64}$/;

export const Consent = z.strictObject({
  accepted: z.literal(true, { error: 'consent.accepted must be true: an application needs the applicant to accept the privacy notice' }),
  text: z
    .string({ error: 'consent.text must be a string' })
    .check(
      z.trim(),
      z.minLength(1, { error: 'consent.text must not be empty' }),
      z.maxLength(2000, { error: 'consent.text must be at most 2000 characters' }),
    ),
  version: z
    .string({ error: 'consent.version must be a string' })
    .check(
      z.trim(),
      z.minLength(1, { error: 'consent.version must not be empty' }),
      z.maxLength(40, { error: 'consent.version must be at most 40 characters' }),
      ...plainText('consent.version'),
    ),
});

export const ApplicationBody = z.strictObject({
  name: text('name', 200),
  email: z.email({ error: 'email must be an email address' }).check(z.maxLength(254, { error: 'email must be at most 254 characters' })),
  phone: z.optional(
    z
      .string({ error: 'phone must be a string' })
      .check(z.trim(), z.regex(PHONE, { error: 'phone must be 3 to 40 digits, spaces or + ( ) . - /' })),
  ),
  // Checked against the posting's questions (validateAnswers), each failure naming answers.<question id>.
  answers: z._default(z.record(z.string(), z.unknown(), { error: 'answers must be an object of question ids to answers' }), {}),
  consent: Consent,
  source: z.optional(
    z
      .string({ error: 'source must be a string' })
      .check(z.regex(SOURCE_PATTERN, { error: 'source must be 1 to 40 lowercase letters, digits, _ or -' })),
  ),
  // From the public job read (the board's job `form_token`, the careers form's hidden field). A
  // missing one is a 400, so an integrator's own form finds out at once; a forged, expired or too
  // recent one is answered as a success and never queued (lib/domain/form-token.ts).
  form_token: z
    .string({ error: 'form_token must be the form_token of the job read (GET /api/boards/{slug}/jobs/{id})' })
    .check(
      z.minLength(1, { error: 'form_token must not be empty' }),
      z.maxLength(200, { error: 'form_token must be at most 200 characters' }),
    ),
  // A CV uploaded for this job (POST /api/boards/{slug}/jobs/{id}/uploads): its upload_id.
  cv_upload_id: z.optional(
    z
      .string({ error: 'cv_upload_id must be the upload_id of a CV uploaded for this job' })
      .check(z.regex(UPLOAD_ID_PATTERN, { error: 'cv_upload_id must be the upload_id of a CV uploaded for this job' })),
  ),
  // The honeypot (HONEYPOT_FIELD): a field people never see; anything in it marks a bot's post,
  // which is answered like any other and never queued.
  website: z.optional(
    z.string({ error: 'website must be a string' }).check(z.maxLength(2048, { error: 'website must be at most 2048 characters' })),
  ),
});
export type ApplicationBody = z.output<typeof ApplicationBody>;

export const ApplicationReceived = z.object({
  data: z.object({
    /** Always `received`: a duplicate or a refused submission answers exactly the same. */
    status: z.literal('received'),
  }),
});

export const applyToJob = {
  method: 'POST',
  path: '/api/boards/{slug}/jobs/{id}/applications',
  handler: 'apply-to-job',
  auth: 'none',
  cors: true,
  formToken: 'check',
  access: 'read',
  // HeadObject of the CV upload the application names.
  files: ['read'],
  importQueue: true,
  summary: DOCS && 'Apply to a published job (public, from any site): queued, answered 202',
  params: ApplyParams,
  body: ApplicationBody,
  ...(DOCS && { errors: { 404: 'No published job with this id on this board' } }),
  status: 202,
  response: ApplicationReceived,
} as const satisfies Route;

/** Asking for a CV upload: the form token of the job's read proves a read of this job. */
export const CvUploadBody = z.strictObject({
  form_token: z
    .string({ error: 'form_token must be the form_token of the job read (GET /api/boards/{slug}/jobs/{id})' })
    .check(
      z.minLength(1, { error: 'form_token must not be empty' }),
      z.maxLength(200, { error: 'form_token must be at most 200 characters' }),
    ),
  // The careers form's `?src=`, carried on to the page the upload returns to.
  source: z.optional(
    z
      .string({ error: 'source must be a string' })
      .check(z.regex(SOURCE_PATTERN, { error: 'source must be 1 to 40 lowercase letters, digits, _ or -' })),
  ),
});
export type CvUploadBody = z.output<typeof CvUploadBody>;

export const CvUpload = z.object({
  data: z.object({
    /** Send it as the application's cv_upload_id once the bytes are in. */
    upload_id: z.string(),
    /** POST a multipart form here: every field of `fields`, then the file (field `file`, last). */
    url: z.string(),
    fields: z.record(z.string(), z.string()),
    expires_at: z.string(),
    /** The largest file the upload takes. */
    max_bytes: z.int(),
    /** What the bytes may be (decided from the bytes, not from a declared type). */
    content_types: z.array(z.string()),
  }),
});

export const createCvUpload = {
  method: 'POST',
  path: '/api/boards/{slug}/jobs/{id}/uploads',
  handler: 'create-cv-upload',
  auth: 'none',
  cors: true,
  formToken: 'check',
  access: 'read',
  files: ['write'],
  summary: DOCS && "Get a presigned POST for the applicant's CV (public, from any site): one PDF or DOCX of at most 10 MB, for this job",
  params: ApplyParams,
  body: CvUploadBody,
  ...(DOCS && {
    errors: {
      404: 'No published job with this id on this board',
      429: 'Too many CV uploads from this address (code rate_limited; see Retry-After)',
    },
  }),
  status: 201,
  response: CvUpload,
} as const satisfies Route;

/**
 * The careers job page's "Upload your CV" form, without JavaScript: the same presigned POST as
 * createCvUpload, answered as the page whose form sends the file to storage
 * (lib/careers/cv-page.ts). Under `/careers/` so that it carries the careers pages' CSP wherever
 * it is served. Not `cors`: only the careers page posts it, urlencoded (or JSON).
 */
export const careersCvUpload = {
  method: 'POST',
  path: '/careers/{slug}/jobs/{id}/cv',
  handler: 'careers-cv-upload',
  auth: 'none',
  formToken: 'check',
  access: 'read',
  files: ['write'],
  html: true,
  summary:
    DOCS &&
    "The careers page's CV step (public; its form posts it urlencoded): a page whose form posts the file straight to storage, which then returns to the job page with `?cv=<upload id>`",
  params: ApplyParams,
  body: CvUploadBody,
  ...(DOCS && {
    errors: {
      400: 'A page saying why (HTML): a form token not signed for this job or too old, or a job that takes no CV',
      404: 'The not-found page (HTML): no published job with this id on this board, or a malformed slug or id',
      415: 'A page saying why (HTML): a body neither urlencoded nor JSON',
      429: 'A page saying there were too many CV uploads from this address (HTML; Retry-After)',
    },
  }),
  status: 201,
  response: z.string(),
} as const satisfies Route;

/**
 * The careers job page's application form, without JavaScript: the same application as
 * applyToJob (the same checks, bot defences and queue), every answer a page
 * (lib/careers/form-post.ts). Under `/careers/` so that the thank-you page carries the careers
 * pages' CSP wherever it is served. Not `cors`: only the careers page posts it, urlencoded (or JSON).
 */
export const careersApply = {
  method: 'POST',
  path: '/careers/{slug}/jobs/{id}/apply',
  handler: 'careers-apply',
  auth: 'none',
  formToken: 'check',
  access: 'read',
  // HeadObject of the CV upload the application names.
  files: ['read'],
  importQueue: true,
  html: true,
  summary:
    DOCS &&
    "The careers page's application form (public; its form posts it urlencoded): queued as the application route does, answered with a thank-you page",
  params: ApplyParams,
  body: ApplicationBody,
  ...(DOCS && {
    errors: {
      400: 'A page saying which field is at fault (HTML)',
      404: 'The not-found page (HTML): no published job with this id on this board, or a malformed slug or id',
      415: 'A page saying why (HTML): a body neither urlencoded nor JSON',
    },
  }),
  status: 202,
  response: z.string(),
} as const satisfies Route;
