/** API tokens: a global lookup item keyed by the token's digest, and a listing item in the tenant. */
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { generateToken, tokenDigest, tokenHint } from '../auth/token';
import { newId, nowIso } from '../ids';
import type { Scope } from '../model';
import { ddb, tableName } from './client';
import { keys } from './table';

export interface TokenGrant {
  token_id: string;
  tenant_id: string;
  tenant_slug: string;
  scopes: Scope[];
}

export interface CreatedToken {
  id: string;
  name: string;
  scopes: Scope[];
  token: string;
  created_at: string;
}

export async function createToken(
  tenant: { id: string; slug: string },
  name: string,
  scopes: Scope[],
): Promise<CreatedToken> {
  const token = generateToken();
  const digest = tokenDigest(token);
  const id = newId();
  const created_at = nowIso();
  await ddb.send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: tableName,
            Item: {
              ...keys.token(digest),
              type: 'token_lookup',
              token_id: id,
              tenant_id: tenant.id,
              tenant_slug: tenant.slug,
              scopes,
            },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
        {
          Put: {
            TableName: tableName,
            Item: {
              ...keys.tenantToken(tenant.id, id),
              type: 'token',
              id,
              name,
              scopes,
              hint: tokenHint(token),
              digest,
              created_at,
            },
          },
        },
      ],
    }),
  );
  return { id, name, scopes, token, created_at };
}

/** The grant behind a token digest, or undefined when the token is unknown or revoked. */
export async function findTokenGrant(digest: string): Promise<TokenGrant | undefined> {
  const { Item } = await ddb.send(new GetCommand({ TableName: tableName, Key: keys.token(digest) }));
  if (!Item) return undefined;
  return {
    token_id: Item.token_id as string,
    tenant_id: Item.tenant_id as string,
    tenant_slug: Item.tenant_slug as string,
    scopes: Item.scopes as Scope[],
  };
}
