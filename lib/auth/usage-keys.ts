/**
 * One API Gateway API key per API token, in the token usage plan (infra/constructs/rate-limits.ts): the
 * TOKEN authorizer returns the key's value as `usageIdentifierKey` (API key source AUTHORIZER),
 * so the plan's throttle and daily quota count each token on its own. Clients never see or send
 * the key; with the AUTHORIZER source API Gateway ignores any x-api-key header.
 *
 * Created with the token, deleted when it is revoked. USAGE_PLAN_NAME is set only on the deployed
 * functions that mint or revoke tokens (a name, not the plan's id: the id would make the functions
 * depend on the plan, which depends on the stage, which depends on the functions, a cycle);
 * locally there is no plan and the local gateway limits by token id
 * (dev/rate-limiter.ts), so these do nothing.
 */
import { randomBytes } from 'node:crypto';
import {
  APIGatewayClient,
  CreateApiKeyCommand,
  CreateUsagePlanKeyCommand,
  DeleteApiKeyCommand,
  GetUsagePlansCommand,
  NotFoundException,
} from '@aws-sdk/client-api-gateway';
import { config } from '../config';
import { logger } from '../logger';
import { tracer } from '../tracer';
import { withoutCallLogging } from '../aws/no-call-logging';

export interface UsageKey {
  id: string;
  value: string;
}

let client: APIGatewayClient | undefined;
// Wrapped like the table's client: each call an X-Ray subsegment.
const gateway = () =>
  (client ??= tracer.captureAWSv3Client(withoutCallLogging(new APIGatewayClient({ region: config.region, maxAttempts: 5 }))));
const planName = () => config.usagePlanName;
let planIdOnce: Promise<string> | undefined;

/** The plan's id, found by its name once per cold start (a handful of plans per account). */
function planId(name: string): Promise<string> {
  planIdOnce ??= (async () => {
    let position: string | undefined;
    do {
      const page = await gateway().send(new GetUsagePlansCommand({ position, limit: 500 }));
      const found = page.items?.find((p) => p.name === name);
      if (found?.id) return found.id;
      position = page.position;
    } while (position);
    throw new Error(`usage plan ${name} not found`);
  })().catch((err) => {
    planIdOnce = undefined; // try again on the next request
    throw err;
  });
  return planIdOnce;
}

/** A new API key in the token usage plan, or undefined where there is no plan (locally). */
export async function createUsageKey(tokenId: string, tenantId: string): Promise<UsageKey | undefined> {
  const name = planName();
  if (!name) return undefined;
  const usagePlanId = await planId(name);
  // The name says whose it is in the console; the value is random (never derived from the token).
  const created = await gateway().send(
    new CreateApiKeyCommand({
      name: `token-${tokenId}`,
      description: `API token ${tokenId} of tenant ${tenantId}`,
      enabled: true,
      value: randomBytes(30).toString('base64url'),
    }),
  );
  try {
    await gateway().send(new CreateUsagePlanKeyCommand({ usagePlanId, keyId: created.id!, keyType: 'API_KEY' }));
  } catch (err) {
    await deleteUsageKey(created.id!);
    throw err;
  }
  return { id: created.id!, value: created.value! };
}

/** Delete a token's API key; a key already gone is fine. Best effort: the token is revoked anyway. */
export async function deleteUsageKey(keyId: string | undefined): Promise<void> {
  if (!keyId || !planName()) return;
  try {
    await gateway().send(new DeleteApiKeyCommand({ apiKey: keyId }));
  } catch (err) {
    if (err instanceof NotFoundException) return;
    // A leftover key counts nothing once its token is gone; the log line lets an operator delete it.
    logger.warn('usage key not deleted', { api_key_id: keyId, error: (err as Error).name });
  }
}
