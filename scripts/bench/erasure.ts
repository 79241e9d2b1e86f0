/**
 * Erasure of a candidate with 40 events delivered to 3 endpoints, against DynamoDB Local: the
 * candidate is created and moved through the real store (40 changes: its item, history, search
 * entries, a placement), and each change's kept webhook body and its 3 delivery attempts (each
 * receiver echoing the payload) are written as the fan-out and the delivery function write them.
 * Then one erasure, timed end to end, and a full Scan for the name afterwards.
 *
 * Run by `npm run bench` (section 10), or alone: `tsx scripts/bench/erasure.ts`. The last line
 * is `RESULT ms=<time> items=<items scrubbed> left=<items still naming the candidate>`.
 */
import '../../dev/quiet-sdk';
import { performance } from 'node:perf_hooks';
import { startDynamoDbLocal } from '../../dev/dynamodb';
import { ensureTable, localClient } from '../../dev/table';

const EVENTS = 40;
const ENDPOINTS = 3;
const NAME = 'Bench Erasable-Quintessa';

const ddbLocal = await startDynamoDbLocal();
try {
  await ensureTable(localClient(ddbLocal.endpoint), 'bench');
  Object.assign(process.env, { TABLE_NAME: 'bench', DYNAMODB_ENDPOINT: ddbLocal.endpoint, POWERTOOLS_LOG_LEVEL: 'ERROR' });
  const { createTenant } = await import('../../lib/store/tenants');
  const { insertCandidate, moveCandidate } = await import('../../lib/domain/candidate-writes');
  const { eventItem, writeLogItems } = await import('../../lib/store/webhook-events');
  const { attemptItem } = await import('../../lib/store/webhook-attempts');
  const { eraseCandidateAs } = await import('../../lib/domain/erasure');
  const { newId } = await import('../../lib/ids');
  const { STAGES } = await import('../../lib/model');
  const { ddb } = await import('../../lib/store/client');
  const { ScanCommand } = await import('@aws-sdk/lib-dynamodb');

  const tenant = await createTenant(`bench-erase-${Date.now()}`, 'Bench erasure');
  const id = newId();
  const now = () => new Date().toISOString();
  const at = now();
  await insertCandidate(tenant.id, {
    id,
    name: NAME,
    email: 'quintessa@example.org',
    phone: '+1 555 0100',
    resume_url: 'https://cv.example.org/q.pdf',
    stage: 'applied',
    created_at: at,
    updated_at: at,
    stage_entered_at: at,
  });
  const endpoints = Array.from({ length: ENDPOINTS }, () => newId());
  const items: Record<string, unknown>[] = [];
  for (let i = 0; i < EVENTS; i++) {
    // 39 moves after the creation, round the stages (placed once: a placement item).
    if (i > 0) await moveCandidate(tenant.id, id, STAGES[i % STAGES.length]!, now);
    const eventId = `evt_${newId().replace(/-/g, '')}`;
    const body = JSON.stringify({
      event: i ? 'candidate.stage_changed' : 'candidate.created',
      data: { candidateId: id, name: NAME, email: 'quintessa@example.org' },
      timestamp: now(),
      tenantSlug: tenant.slug,
    });
    items.push(eventItem(tenant.id, { event_id: eventId, event_type: 'candidate.stage_changed', body }));
    for (const webhookId of endpoints) {
      const a = {
        event_id: eventId,
        event_type: 'candidate.stage_changed',
        attempt: 1,
        response_status: 200,
        success: true,
        duration_ms: 12,
        created_at: now(),
        error: null,
        response_body: body,
        next_attempt_at: null,
        dead_lettered: false,
        error_category: null,
      };
      items.push(attemptItem(tenant.id, webhookId, a, { candidateId: id }));
    }
  }
  if ((await writeLogItems(items)).length) throw new Error('the delivery log was not written');
  // The copy index is eventually consistent, like any GSI: let it settle as it would have by then.
  await new Promise((r) => setTimeout(r, 500));

  const t0 = performance.now();
  const { receipt } = await eraseCandidateAs(tenant.id, id, { type: 'system', rule: 'inactive_days' });
  const ms = performance.now() - t0;
  const scrubbed = Object.values(receipt.scrubbed).reduce((a, b) => a + b, 0);

  let left = 0;
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await ddb.send(new ScanCommand({ TableName: 'bench', ExclusiveStartKey }));
    left += (page.Items ?? []).filter((i) => JSON.stringify(i).toLowerCase().includes('quintessa')).length;
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  console.log(`  ${EVENTS} events x ${ENDPOINTS} endpoints: erased in ${ms.toFixed(0)} ms; scrubbed ${JSON.stringify(receipt.scrubbed)}`);
  console.log(`  full Scan afterwards: ${left} items still hold the name`);
  console.log(`RESULT ms=${ms.toFixed(1)} items=${scrubbed} left=${left}`);
} finally {
  await ddbLocal.stop();
}
