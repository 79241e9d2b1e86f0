/** Human names for the API's codes. */
export const STAGE_LABELS: Record<string, string> = {
  applied: 'Applied',
  ai_screened: 'AI screened',
  interview_scheduled: 'Interview scheduled',
  interviewed: 'Interviewed',
  offer_sent: 'Offer sent',
  offer_accepted: 'Offer accepted',
  onboarding: 'Onboarding',
  placed: 'Placed',
  rejected: 'Rejected',
};
export const STAGE_ORDER = Object.keys(STAGE_LABELS);
export const stageLabel = (s: string) => STAGE_LABELS[s] ?? s;

export const SCOPE_HELP: Record<string, string> = {
  'candidates:read': 'List and read candidates, with their stage history',
  'candidates:write': 'Create and update candidates',
  'candidates:erase': "Erase a candidate's personal data everywhere (not implied by candidates:write)",
  'requisitions:read': 'List requisitions and read one, with its status history',
  'requisitions:write': 'Create requisitions, edit them and change their status',
  'pipeline:read': 'Read stage counts and stuck candidates',
  'pipeline:write': 'Move candidates between stages',
  'offers:read': 'Read offers, their compensation and every version',
  'offers:write': 'Draft offers, change their terms and move them along their statuses',
  '*': 'Full access, including every future scope (admins only)',
};

export const EVENT_HELP: Record<string, string> = {
  'candidate.created': 'A candidate was created',
  'candidate.stage_changed': 'A candidate moved to another stage',
  'candidate.updated': "A candidate's profile changed (name, email, phone, resume or requisition)",
  'candidate.erased': "A candidate's personal data was erased (only its id and the time): erase your copies",
  'offer.sent': 'An offer was sent',
  'offer.accepted': 'An offer was accepted',
  'placement.created': 'A candidate was placed',
  'placement.updated': "A placement's dates changed, or it was cancelled",
  'requisition.created': 'A requisition was created',
  'requisition.updated': "A requisition's title, department, location, job type or headcount changed",
  'requisition.status_changed': 'A requisition was opened, put on hold, filled or closed',
  'import.completed': 'A bulk import of candidates ended (its counts)',
  'note.created': 'A team note was written on a person (ids only)',
};

export const REQ_STATUS_LABELS: Record<string, string> = {
  open: 'Open',
  on_hold: 'On hold',
  filled: 'Filled',
  draft: 'Draft',
  closed: 'Closed',
};
export const reqStatusLabel = (s: string) => REQ_STATUS_LABELS[s] ?? s;

export const JOB_TYPE_LABELS: Record<string, string> = {
  direct_hire: 'Direct hire',
  contract: 'Contract',
  contract_to_hire: 'Contract to hire',
  temporary: 'Temporary',
  internship: 'Internship',
};
export const jobTypeLabel = (s: string) => JOB_TYPE_LABELS[s] ?? s;

/** Where a candidate came from (the list's source filter offers the same words). */
export const SOURCE_LABELS: Record<string, string> = {
  careers: 'Careers page',
  api: 'API',
  console: 'Console',
  import: 'Import',
};
/** A link's own `src` (say `linkedin`) is shown as given, after "Careers page". */
export const sourceLabel = (s: string | null | undefined) => (!s ? 'Not recorded' : (SOURCE_LABELS[s] ?? `Careers page, from “${s}”`));
