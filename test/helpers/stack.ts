/**
 * Integration harness: a fresh table on the shared DynamoDB Local, the real handlers behind
 * the local gateway on an ephemeral port, and helpers to make tenants and tokens.
 * Call `startStack()` in beforeAll; it must run before anything imports lib/store.
 */
import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { ensureTable, localClient } from '../../infra/local/table';
import type { Scope } from '../../lib/model';

export interface TestTenant {
  id: string;
  slug: string;
  token(scopes?: Scope[]): Promise<string>;
  /** A user of this tenant; password is `PASSWORD`. */
  user(role?: 'admin' | 'member', email?: string): Promise<{ id: string; email: string }>;
}

export const PASSWORD = 'correct horse battery staple';

export interface Stack {
  url: string;
  tableName: string;
  logs: string[];
  call(method: string, path: string, opts?: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> }): Promise<{ status: number; body: any; text: string; headers: Headers }>;
  tenant(slug?: string): Promise<TestTenant>;
  /** Log in; returns the Cookie header value to send. */
  login(email: string, password: string): Promise<string>;
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
  const { createUser } = await import('../../lib/store/users');
  const { hashPassword } = await import('../../lib/auth/password');
  // scrypt is deliberately slow: hash the shared test password once per file.
  const passwordHash = hashPassword(PASSWORD);
  const logs: string[] = [];
  const gateway = createGateway({ log: (l) => logs.push(l), authorizerCacheTtlSeconds: opts.authorizerCacheTtlSeconds });
  const url = await gateway.listen(0);

  const stack: Stack = {
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
        user: async (role = 'admin', email = `${role}-${randomUUID().slice(0, 8)}@${slug}.example.com`) => {
          const u = await createUser(t.id, email, await passwordHash, role);
          return { id: u.id, email: u.email };
        },
      };
    },
    async login(email, password) {
      const res = await stack.call('POST', '/api/session', { body: { email, password } });
      if (res.status !== 200) throw new Error(`login failed: ${res.status} ${res.text}`);
      const cookie = res.headers.getSetCookie().find((c: string) => c.startsWith('__Host-tp_session='));
      if (!cookie) throw new Error('login set no session cookie');
      return cookie.split(';')[0]!;
    },
    close: () => gateway.close(),
  };
  return stack;
}
