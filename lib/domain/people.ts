/** People routes: a person's page (the person and their candidates). */
import { NotFoundError } from '../errors';
import type { Person, PersonCandidate } from '../api/people';
import { getPerson as getPersonRecord, queryPersonCandidates } from '../store/people';
import { sightAmong } from './person-sight';
import type { Principal } from './principal';
import { seesAll, seesPersonRecord, viewerOf, withoutHiddenFields } from './visibility';

/**
 * A person and every candidate of theirs the caller sees: a GetItem and a Query, at once, whatever
 * their number (and for a hiring manager the requisitions of those candidates). Another
 * workspace's person id, or a person the caller sees no candidate of, is a 404 as an unknown one is.
 */
export async function getPerson(p: Principal, id: string): Promise<Person> {
  const v = viewerOf(p);
  const [person, candidates] = await Promise.all([getPersonRecord(p.tenantId, id), queryPersonCandidates(p.tenantId, id)]);
  if (!person) throw new NotFoundError('person');
  const sight = seesAll(v) ? ({ all: true } as const) : await sightAmong(p, v, candidates);
  const { candidate_count: _n, ...fields } = person;
  const shown = candidates.filter((c) => seesPersonRecord(sight, c.id));
  return withoutHiddenFields(v, { ...fields, candidates: shown as PersonCandidate[] });
}
