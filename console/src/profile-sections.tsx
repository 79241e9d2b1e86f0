/**
 * The candidate page's sections slot: each entry is drawn on the profile, in this order, between
 * the header and the stage history. A feature mounts its section with one line here; the section
 * renders its own `<section>` with an `<h2>` and loads its own data.
 */
import type { ComponentType } from 'preact';
import { Activity } from './activity';
import { ApplicationSection } from './application-section';
import { Files } from './files';
import { InterviewsSection } from './interviews-section';
import { Notes } from './notes';
import { Offers } from './offers';
import { useMay } from './session';
import type { CandidateDetail } from './recruiting';

export interface ProfileSectionProps {
  candidate: CandidateDetail;
  /** Load the candidate again (after a change the header shows). */
  reload: () => Promise<void>;
}

// A candidate written before people existed has no person until the backfill: no notes or feed yet.
const NotesSection = ({ candidate: c }: ProfileSectionProps) => (c.person_id ? <Notes personId={c.person_id} candidateId={c.id} /> : null);
const ActivitySection = ({ candidate: c }: ProfileSectionProps) => (c.person_id ? <Activity personId={c.person_id} /> : null);

// An erased person's files are gone with them: nothing to list or upload.
const FilesSection = ({ candidate: c }: ProfileSectionProps) => (c.person_id && !c.erased_at ? <Files personId={c.person_id} /> : null);

// Offers hold compensation: only the roles that may read them see the section.
function OffersSection({ candidate: c, reload }: ProfileSectionProps) {
  const may = useMay();
  return may('GET /api/candidates/{id}/offers') ? <Offers candidateId={c.id} onChanged={reload} /> : null;
}

export const PROFILE_SECTIONS: ComponentType<ProfileSectionProps>[] = [
  ApplicationSection,
  FilesSection,
  InterviewsSection,
  OffersSection,
  NotesSection,
  ActivitySection,
];
