/**
 * How an erasure finds every copy, and sweeps again: the copy ledger, read consistently, finds
 * copies the copy index has not caught up with; an idempotency record saved after the erasure
 * keeps the erased answer; a repeated erase call sweeps again and answers the receipt with what it
 * found; the follow-up sweep runs once the in-flight window has passed, and only once; an erasure
 * that fails takes its marker back.
 */
import { settleAudit } from '../../../helpers/audit';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { scanTable } from '../../../helpers/scan';
import {
  holders,
  pauseCall,
  person,
  stack,
  startReceiver,
  until,
  withCopyIndexBehind,
  workspace,
  type Workspace,
  useErasureFixture,
} from './fixture';
import { ddb, tableName, ddbClient } from '../../../../lib/store/client';
import { copyIndexKey, keys } from '../../../../lib/store/table';
import { newId } from '../../../../lib/ids';
import { getCandidate } from '../../../../lib/store/candidates';
import { lambdaContext } from '../../../../dev/events';
import { ERASURE_FOLLOW_UP_KIND } from '../../../../lib/model';
import { candidateErased } from '../../../../lib/store/webhook-events';
import { FOLLOW_UP_AFTER_MS, runErasureFollowUps } from '../../../../lib/domain/erasure';
import { handler as retention } from '../../../../functions/retention';

useErasureFixture();

/**
 * A delivery attempt as the code before the copy ledger wrote it: the receiver's echo, found only
 * through the copy index. A copy a first sweep can miss while the index lags.
 */
async function olderCopy(ws: Workspace, candidateId: string, webhookId: string, echo: string) {
  const key = keys.attempt(ws.tenant.id, webhookId, newId());
  await ddb.send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...key,
        ...copyIndexKey(ws.tenant.id, candidateId, key.SK),
        type: 'webhook_attempt',
        id: key.SK.split('#').at(-1),
        event_id: `evt_${newId().replace(/-/g, '')}`,
        event_type: 'candidate.created',
        attempt: 1,
        response_status: 200,
        success: true,
        duration_ms: 3,
        created_at: new Date().toISOString(),
        response_body: echo,
      },
    }),
  );
}

/** The candidate's stored receipt (the item's `erasure`), as the store keeps it. */
const storedReceipt = async (ws: Workspace, id: string) => {
  return (await getCandidate(ws.tenant.id, id))?.erasure as { erased_at: string; scrubbed: Record<string, number> };
};

const auditOf = async (ws: Workspace, id: string, action: string) => {
  await settleAudit();
  return (await ws.session('GET', `/api/audit?target=${id}&action=${action}`)).body.data as {
    actor: { type: string; id: string };
    changes: unknown[];
  }[];
};

describe('finding every copy', () => {
  it('finds copies the copy index has not caught up with: placements, kept bodies, attempts, idempotency records', async () => {
    const ws = await workspace();
    const rx = await startReceiver();
    const endpoint = await ws.endpoint(rx.url('/e'));
    const p = person();
    const id = await ws.create(p, { 'Idempotency-Key': `ledger-${Date.now()}` });
    const moved = await stack.call('POST', '/api/v1/pipeline', {
      token: ws.token,
      body: { candidate_id: id, stage: 'placed' },
      headers: { 'Idempotency-Key': `ledger-move-${Date.now()}` },
    });
    expect(moved.status, moved.text).toBe(200);
    // candidate.created, candidate.stage_changed, placement.created: kept and delivered with their echo.
    await until('three deliveries logged', async () => (await ws.attempts(endpoint)).length === 3);
    const kinds = new Set((await holders(p)).map((h) => h.kind));
    for (const kind of ['webhook_event', 'webhook_attempt', 'placement', 'idempotency']) expect(kinds).toContain(kind);

    const erased = await withCopyIndexBehind(() => ws.erase(id));
    expect(erased.status, erased.text).toBe(200);
    expect(erased.body.data.scrubbed).toMatchObject({ webhook_events: 3, delivery_attempts: 3, placements: 1, idempotency_records: 2 });
    expect(await holders(p)).toEqual([]);
  });

  it('an idempotency record saved after the erasure keeps the erased answer', async () => {
    const ws = await workspace();
    const p = person();
    const id = await ws.create(p);
    const key = `late-save-${Date.now()}`;
    // The record's save, after the handler has answered with the candidate.
    const save = await pauseCall((command, input) => command !== 'PutItemCommand' && input.includes('#IDEM') && input.includes(p.email));
    try {
      const patched = stack.call('PATCH', `/api/v1/candidates/${id}`, {
        token: ws.token,
        body: { phone: p.phone },
        headers: { 'Idempotency-Key': key },
      });
      await save.reached;
      const erased = await ws.erase(id);
      expect(erased.status, erased.text).toBe(200);
      save.release();
      expect((await patched).status).toBe(200);
      expect(await holders(p)).toEqual([]);
      // A retry of the write answers the erased candidate, and writes nothing.
      const retry = await stack.call('PATCH', `/api/v1/candidates/${id}`, {
        token: ws.token,
        body: { phone: p.phone },
        headers: { 'Idempotency-Key': key },
      });
      expect(retry.headers.get('Idempotent-Replayed')).toBe('true');
      expect(retry.body.data).toMatchObject({ id, name: '', email: null, phone: null });
    } finally {
      save.release();
      save.remove();
    }
  });
});

describe('sweeping again', () => {
  it('a repeated erase call sweeps again and answers the receipt with what it found', async () => {
    const ws = await workspace();
    const p = person();
    const id = await ws.create(p);
    await olderCopy(ws, id, '01900000-0000-7000-8000-00000000e001', `{"name":"${p.name}"}`);
    const first = await withCopyIndexBehind(() => ws.erase(id));
    expect(first.status, first.text).toBe(200);
    expect(first.body.data.scrubbed.delivery_attempts).toBe(0);
    expect((await holders(p)).map((h) => h.kind)).toEqual(['webhook_attempt']);

    const again = await ws.erase(id);
    expect(again.status, again.text).toBe(200);
    expect(again.body.data).toEqual({ ...first.body.data, scrubbed: { ...first.body.data.scrubbed, delivery_attempts: 1 } });
    expect(await holders(p)).toEqual([]);
    // The sweep that found something is audited, by who asked; the erasure's own record stays one.
    const swept = await auditOf(ws, id, 'candidate.erasure_swept');
    expect(swept).toHaveLength(1);
    expect(swept[0]!.actor.type).toBe('token');
    expect(swept[0]!.changes).toEqual([{ field: 'scrubbed', after: expect.objectContaining({ delivery_attempts: 1, candidate: 0 }) }]);
    expect(await auditOf(ws, id, 'candidate.erased')).toHaveLength(1);
    // Nothing more to find: the same receipt, nothing written.
    const third = await ws.erase(id);
    expect(third.body).toEqual(again.body);
    expect(await auditOf(ws, id, 'candidate.erasure_swept')).toHaveLength(1);
  });

  it('the follow-up sweep runs once the in-flight window has passed, adds what it finds to the receipt, and only once', async () => {
    const ws = await workspace();
    const p = person();
    const id = await ws.create(p);
    await olderCopy(ws, id, '01900000-0000-7000-8000-00000000e002', `{"email":"${p.email}"}`);
    const erased = await withCopyIndexBehind(() => ws.erase(id));
    expect(erased.status, erased.text).toBe(200);
    const at = Date.parse(erased.body.data.erased_at);
    const followUp = async () =>
      await scanTable({
        FilterExpression: 'candidate_id = :c AND #t = :t',
        ExpressionAttributeNames: { '#t': 'type' },
        ExpressionAttributeValues: { ':c': id, ':t': 'erasure_follow_up' },
      });
    expect(await followUp()).toHaveLength(1);

    // Before the window has passed: not due, nothing swept.
    await runErasureFollowUps(at + FOLLOW_UP_AFTER_MS - 1_000);
    expect(await holders(p)).toHaveLength(1);
    expect(await followUp()).toHaveLength(1);
    // After it: swept, counted on the receipt, audited as the system, and done.
    await runErasureFollowUps(at + FOLLOW_UP_AFTER_MS + 1);
    expect(await holders(p)).toEqual([]);
    expect((await storedReceipt(ws, id)).scrubbed.delivery_attempts).toBe(erased.body.data.scrubbed.delivery_attempts + 1);
    const swept = await auditOf(ws, id, 'candidate.erasure_swept');
    expect(swept.map((r) => r.actor)).toEqual([expect.objectContaining({ type: 'system', id: 'erasure-follow-up' })]);
    expect(await followUp()).toEqual([]);
    // Run again: nothing is due for it any more.
    await runErasureFollowUps(at + FOLLOW_UP_AFTER_MS + 60_000);
    expect(await auditOf(ws, id, 'candidate.erasure_swept')).toHaveLength(1);
  });

  it('a follow-up whose sweep fails stays for the next run, the others are done, and the run fails', async () => {
    const ws = await workspace();
    const [a, b] = [person(), person()];
    const [idA, idB] = [await ws.create(a), await ws.create(b)];
    const erasedA = await ws.erase(idA);
    const erasedB = await ws.erase(idB);
    expect([erasedA.status, erasedB.status]).toEqual([200, 200]);
    const followUpOf = async (id: string) =>
      scanTable({
        FilterExpression: 'candidate_id = :c AND #t = :t',
        ExpressionAttributeNames: { '#t': 'type' },
        ExpressionAttributeValues: { ':c': id, ':t': 'erasure_follow_up' },
      });
    // A's sweep cannot read its ledger.
    const name = 'fail-one-sweep';
    ddbClient.middlewareStack.add(
      (next, ctx) => async (args) => {
        if (ctx.commandName === 'QueryCommand' && JSON.stringify((args as { input: unknown }).input).includes(`COPY#${idA}#`)) {
          throw Object.assign(new Error('refused by the test'), { name: 'InternalServerError' });
        }
        return next(args);
      },
      { step: 'initialize', name },
    );
    try {
      const due = Math.max(Date.parse(erasedA.body.data.erased_at), Date.parse(erasedB.body.data.erased_at)) + FOLLOW_UP_AFTER_MS + 1;
      await expect(runErasureFollowUps(due)).rejects.toThrow(/1 erasure follow-ups failed \(InternalServerError\)/);
    } finally {
      ddbClient.middlewareStack.remove(name);
    }
    expect(await followUpOf(idA)).toHaveLength(1);
    expect(await followUpOf(idB)).toEqual([]);
  });

  it('the retention function runs the follow-ups for the schedule’s event, and the rules for the daily one', async () => {
    const followUps = await retention({ kind: ERASURE_FOLLOW_UP_KIND } as never, lambdaContext('retention'));
    expect(Object.keys(followUps).sort()).toEqual(['scrubbed', 'swept']);
    const rules = await retention({} as never, lambdaContext('retention'));
    expect(Object.keys(rules).sort()).toEqual(['erased', 'resweep', 'workspaces']);
  });

  it('an erasure that fails takes its marker back: the candidate’s events still go out', async () => {
    const ws = await workspace();
    const rx = await startReceiver();
    await ws.endpoint(rx.url('/w'), ['candidate.updated']);
    const p = person();
    const id = await ws.create(p);
    // The erasure's own transaction (the candidate's scrub) refused as DynamoDB would refuse a malformed one.
    const name = 'refuse-erasure';
    ddbClient.middlewareStack.add(
      (next, ctx) => async (args) => {
        if (
          ctx.commandName === 'TransactWriteItemsCommand' &&
          JSON.stringify((args as { input: unknown }).input).includes('erased_marker')
        ) {
          throw Object.assign(new Error('refused by the test'), { name: 'ValidationException' });
        }
        return next(args);
      },
      { step: 'initialize', name },
    );
    try {
      const failed = await ws.erase(id);
      expect(failed.status).toBe(500);
    } finally {
      ddbClient.middlewareStack.remove(name);
    }
    expect(await candidateErased(ws.tenant.id, id)).toBe(false);
    const patched = await stack.call('PATCH', `/api/v1/candidates/${id}`, { token: ws.token, body: { phone: p.phone } });
    expect(patched.status, patched.text).toBe(200);
    await until('candidate.updated delivered', () => rx.at('/w').some((h) => h.env?.data?.candidateId === id));
  });
});
