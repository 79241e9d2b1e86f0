/**
 * Integration harness: a fresh table on the shared DynamoDB Local, the real handlers behind
 * the local gateway on an ephemeral port, and helpers to make tenants and tokens.
 * Call `startStack()` in beforeAll; it must run before anything imports lib/store.
 */
import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { ensureTable, localClient } from '../../infra/local/table';
import type { Scope } from '../../lib/model';

export interface Stack {
  url: string;
  tableName: string;
  logs: string[];
  call(method: string, path: string, opts?: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> }): Promise<{ status: number; body: any; text: string; headers: Headers }>;
  tenant(slug?: string): Promise<{ id: string; slug: string; token(scopes?: Scope[]): Promise<string> }>;
  close(): Promise<void>;
}

export async function startStack(opts: { authorizerCacheTtlSeconds?: number } = {}): Promise<Stack> {
  const endpoint = inject('dynamodbEndpoint');
  const tableName = `test-${randomUUID()}`;
  await ensureTable(localClient(endpoint), tableName);
  process.env.TABLE_NAME = tableName;
  process.env.DYNAMODB_ENDPOINT = endpoint;
  const { createGateway } = await import('../../infra/local/gateway');
  const { createTenant } = await import('../../lib/store/tenants');
  const { createToken } = await import('../../lib/store/tokens');
  const logs: string[] = [];
  const gateway = createGateway({ log: (l) => logs.push(l), authorizerCacheTtlSeconds: opts.authorizerCacheTtlSeconds });
  const url = await gateway.listen(0);

  return {
    url,
    tableName,
    logs,
    async call(method, path, { token, body, rawBody, headers = {} } = {}) {
      const res = await fetch(`${url}${path}`, {
        method,
        headers: {
          ...(token && { Authorization: `Bearer ${token}` }),
          ...(body !== undefined && { 'Content-Type': 'application/json' }),
          ...headers,
        },
        body: rawBody ?? (body !== undefined ? JSON.stringify(body) : undefined),
      });
      const text = await res.text();
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      return { status: res.status, body: parsed, text, headers: res.headers };
    },
    async tenant(slug = `t-${randomUUID().slice(0, 8)}`) {
      const t = await createTenant(slug, `Tenant ${slug}`);
      return {
        id: t.id,
        slug: t.slug,
        token: async (scopes: Scope[] = ['*']) => (await createToken(t, 'test', scopes)).token,
      };
    },
    close: () => gateway.close(),
  };
}
