/**
 * A person with one candidate, made as a client makes one: POST /api/v1/candidates, whose answer
 * names the person it matched or created.
 */
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { newId } from '../../lib/ids';
import { ddb, tableName } from '../../lib/store/client';
import { personKey } from '../../lib/store/person-keys';
import { keys } from '../../lib/store/table';
import type { Stack, TestTenant } from './stack';

export async function newPerson(stack: Stack, tenant: TestTenant, token: string, body: Record<string, unknown> = {}) {
  const res = await stack.call('POST', '/api/v1/candidates', {
    token,
    body: { name: 'Noor Notes', email: `noor-${randomUUID().slice(0, 8)}@example.com`, ...body },
  });
  expect(res.status, res.text).toBe(201);
  const candidateId = res.body.data.id as string;
  if (typeof res.body.data.person_id === 'string') return { personId: res.body.data.person_id as string, candidateId };
  // Before people: the person item and the candidate's link, as the person core writes them.
  const personId = newId();
  await ddb.send(new PutCommand({ TableName: tableName, Item: { ...personKey(tenant.id, personId), type: 'person', id: personId } }));
  await ddb.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.candidate(tenant.id, candidateId),
      UpdateExpression: 'SET person_id = :p',
      ExpressionAttributeValues: { ':p': personId },
    }),
  );
  return { personId, candidateId };
}
