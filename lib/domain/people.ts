/** People routes: a person's page (the person and their candidates). */
import { NotFoundError } from '../errors';
import type { Person, PersonCandidate } from '../api/people';
import { getPerson as getPersonRecord, queryPersonCandidates } from '../store/people';
import type { Principal } from './principal';

/**
 * A person and every candidate of theirs: a GetItem and a Query, at once, whatever their number.
 * Another workspace's person id is a 404, as an unknown one is.
 */
export async function getPerson(p: Principal, id: string): Promise<Person> {
  const [person, candidates] = await Promise.all([getPersonRecord(p.tenantId, id), queryPersonCandidates(p.tenantId, id)]);
  if (!person) throw new NotFoundError('person');
  const { candidate_count: _n, ...fields } = person;
  return { ...fields, candidates: candidates as PersonCandidate[] };
}
