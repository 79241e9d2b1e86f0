/**
 * Writes events/: one realistic event per function, aimed at the demo workspace that
 * `npm start` seeds. Run `npm run events` after changing routes; a test checks they exist.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Route } from '../../lib/routes';
import { routes } from '../../lib/routes';
import { methodArn, proxyEvent, requestAuthorizerEvent, tokenAuthorizerEvent } from './events';
import { DEMO, demoCandidateId } from './demo-data';

const dir = join(import.meta.dirname, '..', '..', 'events');
mkdirSync(dir, { recursive: true });

const principalId = '00000000-0000-7000-8000-000000000000';
const contexts: Record<Route['auth'], Record<string, unknown> | undefined> = {
  token: { tenantId: DEMO.tenantId, tenantSlug: DEMO.slug, tokenId: principalId, scopes: '*', principalId, integrationLatency: 12 },
  session: {
    tenantId: DEMO.tenantId,
    tenantSlug: DEMO.slug,
    userId: DEMO.adminUserId,
    email: DEMO.adminEmail,
    role: 'admin',
    principalId: DEMO.adminUserId,
    integrationLatency: 41,
  },
  none: undefined,
};

/**
 * Placeholders that `npm run invoke` fills from DATA_DIR: {{DEMO_TOKEN}}, {{DEMO_PASSWORD}},
 * and {{DEMO_SESSION}} (a fresh session of the demo admin).
 */
const samples: Record<string, { query?: Record<string, string>; body?: unknown; params?: Record<string, string> }> = {
  'list-candidates': { query: { stage: 'applied', limit: '20' } },
  'create-candidate': {
    body: { name: 'Jordan Rivers', email: 'jordan.rivers@example.com', phone: '+1 555 0199', req_id: DEMO.requisitions[0]!.id },
  },
  'list-requisitions': { query: { status: 'open', limit: '50' } },
  'get-pipeline': {},
  'change-stage': { body: { candidate_id: demoCandidateId(2), stage: 'ai_screened' } },
  login: { body: { email: DEMO.adminEmail, password: '{{DEMO_PASSWORD}}' } },
  'create-token': { body: { name: 'CI pipeline reader', scopes: ['pipeline:read', 'candidates:read'] } },
  // An id that exists nowhere: invoking shows the 404 path and never revokes the demo token.
  'revoke-token': { params: { id: '0192f1a0-0000-7000-8000-00000000dead' } },
};

for (const r of routes as readonly Route[]) {
  const sample = samples[r.handler] ?? {};
  const path = r.path.replace(/\{(\w+)\}/g, (_, name: string) => sample.params?.[name] ?? name);
  const event = proxyEvent({
    method: r.method,
    path,
    resource: r.path,
    pathParameters: sample.params ?? {},
    headers: {
      Accept: 'application/json',
      ...(r.auth === 'token' && { Authorization: 'Bearer {{DEMO_TOKEN}}' }),
      ...(r.auth === 'session' && { Cookie: '__Host-tp_session={{DEMO_SESSION}}' }),
      Host: 'abc123.execute-api.us-east-1.amazonaws.com',
      'User-Agent': r.auth === 'token' ? 'curl/8.5.0' : 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0',
      'X-Forwarded-For': '203.0.113.10',
      'X-Forwarded-Proto': 'https',
      ...(sample.body ? { 'Content-Type': 'application/json' } : {}),
      ...(r.auth !== 'token' && r.method !== 'GET' && { Origin: 'https://abc123.execute-api.us-east-1.amazonaws.com', 'Sec-Fetch-Site': 'same-origin' }),
    },
    search: new URLSearchParams(sample.query),
    body: sample.body ? JSON.stringify(sample.body) : null,
    sourceIp: '203.0.113.10',
    authorizer: contexts[r.auth],
  });
  writeFileSync(join(dir, `${r.handler}.json`), `${JSON.stringify(event, null, 2)}\n`);
}
writeFileSync(
  join(dir, 'authorizer.json'),
  `${JSON.stringify(tokenAuthorizerEvent('Bearer {{DEMO_TOKEN}}', 'GET', '/api/v1/pipeline'), null, 2)}\n`,
);
const sessionRoute = (routes as readonly Route[]).find((r) => r.handler === 'list-tokens')!;
const sessionEvent = proxyEvent({
  method: sessionRoute.method,
  path: sessionRoute.path,
  resource: sessionRoute.path,
  pathParameters: {},
  headers: { Cookie: '__Host-tp_session={{DEMO_SESSION}}', Host: 'abc123.execute-api.us-east-1.amazonaws.com', 'User-Agent': 'Mozilla/5.0' },
  search: new URLSearchParams(),
  body: null,
  sourceIp: '203.0.113.10',
});
writeFileSync(
  join(dir, 'session-authorizer.json'),
  `${JSON.stringify(requestAuthorizerEvent(sessionEvent, methodArn(sessionRoute.method, sessionRoute.path)), null, 2)}\n`,
);
console.log(`wrote ${routes.length + 2} events to ${dir}`);
