/**
 * Writes events/: one realistic event per function, aimed at the demo workspace that
 * `npm start` seeds. Run `npm run events` after changing routes; a test checks they exist.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Route } from '../../lib/routes';
import { routes } from '../../lib/routes';
import { proxyEvent, tokenAuthorizerEvent } from './events';
import { DEMO, demoCandidateId } from './demo-data';

const dir = join(import.meta.dirname, '..', '..', 'events');
mkdirSync(dir, { recursive: true });

const demoContext = {
  tenantId: DEMO.tenantId,
  tenantSlug: DEMO.slug,
  tokenId: '00000000-0000-7000-8000-000000000000',
  scopes: '*',
  principalId: '00000000-0000-7000-8000-000000000000',
  integrationLatency: 12,
};

const samples: Record<string, { query?: Record<string, string>; body?: unknown }> = {
  'list-candidates': { query: { stage: 'applied', limit: '20' } },
  'create-candidate': {
    body: { name: 'Jordan Rivers', email: 'jordan.rivers@example.com', phone: '+1 555 0199', req_id: DEMO.requisitions[0]!.id },
  },
  'list-requisitions': { query: { status: 'open', limit: '50' } },
  'get-pipeline': {},
  'change-stage': { body: { candidate_id: demoCandidateId(2), stage: 'ai_screened' } },
};

for (const r of routes as readonly Route[]) {
  const sample = samples[r.handler] ?? {};
  const event = proxyEvent({
    method: r.method,
    path: r.path,
    resource: r.path,
    pathParameters: {},
    headers: {
      Accept: 'application/json',
      Authorization: 'Bearer {{DEMO_TOKEN}}',
      Host: 'abc123.execute-api.us-east-1.amazonaws.com',
      'User-Agent': 'curl/8.5.0',
      'X-Forwarded-For': '203.0.113.10',
      ...(sample.body ? { 'Content-Type': 'application/json' } : {}),
    },
    search: new URLSearchParams(sample.query),
    body: sample.body ? JSON.stringify(sample.body) : null,
    sourceIp: '203.0.113.10',
    authorizer: demoContext,
  });
  writeFileSync(join(dir, `${r.handler}.json`), `${JSON.stringify(event, null, 2)}\n`);
}
writeFileSync(
  join(dir, 'authorizer.json'),
  `${JSON.stringify(tokenAuthorizerEvent('Bearer {{DEMO_TOKEN}}', 'GET', '/api/v1/pipeline'), null, 2)}\n`,
);
console.log(`wrote ${routes.length + 1} events to ${dir}`);
