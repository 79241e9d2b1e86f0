/**
 * The day's budget of refused member adds of a workspace. An email signs in to one account across
 * the service, so an address with an account in another workspace cannot be added, and that
 * refusal tells the admin that the address is taken somewhere. The budget bounds how many
 * addresses a workspace can learn that of: each add takes a place before the email is looked up
 * (so parallel adds cannot pass the limit), an add that ends any other way gives it back, and
 * once the day's places are gone every add answers the same 429, whatever the email.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, tableName } from './client';
import { keys, TABLE_DEF } from './table';
import { unlessConditionFails } from './tx';

/** Refused adds a workspace may have per UTC day. */
export const MAX_REFUSED_ADDS_PER_DAY = 10;

/** The UTC day an add counts in; taken once, so a place is given back to the day it was taken from. */
export const addDay = (now: number) => new Date(now).toISOString().slice(0, 10);

const key = (tenantId: string, day: string) => ({ PK: keys.tenantPartition(tenantId), SK: `MEMBER_ADDS#${day}` });

/** Take a place; false when the day's budget is used up. */
export async function takeAddPlace(tenantId: string, day: string): Promise<boolean> {
  const taken = await unlessConditionFails(
    ddb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key(tenantId, day),
        UpdateExpression: 'SET #type = :type, #ttl = :ttl ADD refused :one',
        ConditionExpression: 'attribute_not_exists(refused) OR refused < :max',
        ExpressionAttributeNames: { '#type': 'type', '#ttl': TABLE_DEF.ttlAttribute },
        ExpressionAttributeValues: {
          ':type': 'member_adds',
          ':ttl': Math.ceil(Date.parse(`${day}T00:00:00.000Z`) / 1000) + 2 * 86_400,
          ':one': 1,
          ':max': MAX_REFUSED_ADDS_PER_DAY,
        },
      }),
    ),
  );
  return taken !== undefined;
}

/** The add was not refused: its place goes back. */
export async function giveAddPlaceBack(tenantId: string, day: string): Promise<void> {
  await unlessConditionFails(
    ddb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key(tenantId, day),
        UpdateExpression: 'ADD refused :minus',
        ConditionExpression: 'refused > :zero',
        ExpressionAttributeValues: { ':minus': -1, ':zero': 0 },
      }),
    ),
  );
}
