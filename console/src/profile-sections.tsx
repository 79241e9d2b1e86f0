/**
 * The candidate page's sections slot: each entry is drawn on the profile, in this order, between
 * the header and the stage history. A feature mounts its section with one line here; the section
 * renders its own `<section>` with an `<h2>` and loads its own data.
 */
import type { ComponentType } from 'preact';
import type { CandidateDetail } from './recruiting';

export interface ProfileSectionProps {
  candidate: CandidateDetail;
  /** Load the candidate again (after a change the header shows). */
  reload: () => Promise<void>;
}

export const PROFILE_SECTIONS: ComponentType<ProfileSectionProps>[] = [];
