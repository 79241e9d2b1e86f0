/**
 * What the invitation worker reads and writes: an interview's change item (the state it sends)
 * and the marks of who was sent that change's invitation (`IVMAIL#<id>#<seq>`: member ids and
 * `candidate`, no address), so that a retried message sends only what is missing. Marks leave by
 * TTL once no retry can come.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { InvitationChange } from '../domain/interview-invitation-rules';
import { ddb, tableName } from './client';
import { keys, TABLE_DEF } from './table';

/** SQS keeps a message 4 days at most: a mark older than that guards nothing. */
const MARK_TTL_S = 14 * 86_400;

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : v instanceof Set ? [...v].map(String) : []);

/** One change of an interview as its change item holds it; undefined when there is none. */
export async function getInvitationChange(tenantId: string, interviewId: string, sequence: number): Promise<InvitationChange | undefined> {
  const { Item } = await ddb.send(
    new GetCommand({ TableName: tableName(), Key: keys.interviewChange(tenantId, interviewId, sequence), ConsistentRead: true }),
  );
  if (!Item) return undefined;
  return {
    interviewId,
    candidateId: String(Item.candidate_id),
    sequence,
    event: Item.event,
    status: Item.status === 'cancelled' ? 'cancelled' : 'scheduled',
    start: String(Item.start),
    end: String(Item.end),
    timeZone: String(Item.time_zone),
    stepName: String(Item.step_name ?? 'Interview'),
    location: typeof Item.location === 'string' ? Item.location : null,
    interviewers: strings(Item.interviewers),
    dropped: strings(Item.dropped_interviewers),
    inviteCandidate: Item.invite_candidate === true,
    at: String(Item.at),
  };
}

/** Who has been sent this change's invitation. */
export async function sentInvitations(tenantId: string, interviewId: string, sequence: number): Promise<Set<string>> {
  const { Item } = await ddb.send(
    new GetCommand({ TableName: tableName(), Key: keys.invitationsSent(tenantId, interviewId, sequence), ConsistentRead: true }),
  );
  return new Set(strings(Item?.sent));
}

/** Note that `key` was sent this change's invitation. */
export async function markInvitationSent(tenantId: string, interviewId: string, sequence: number, key: string): Promise<void> {
  await ddb.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.invitationsSent(tenantId, interviewId, sequence),
      UpdateExpression: 'ADD #sent :k SET #type = :type, tenant_id = :t, #ttl = :ttl',
      ExpressionAttributeNames: { '#sent': 'sent', '#type': 'type', '#ttl': TABLE_DEF.ttlAttribute },
      ExpressionAttributeValues: {
        ':k': new Set([key]),
        ':type': 'interview_invitations_sent',
        ':t': tenantId,
        ':ttl': Math.floor(Date.now() / 1000) + MARK_TTL_S,
      },
    }),
  );
}
