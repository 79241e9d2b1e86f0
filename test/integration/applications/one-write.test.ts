/**
 * The synchronous path of an application makes one write, the queue send, and no table write
 * beside the limits' counters (one slot each, none under RATE_LIMITS=off): a burst costs the
 * table nothing else until the worker takes the messages at its own pace. Pinned by counting the
 * table client's commands and the queue's sends over one accepted application, with the limits
 * on (as deployed) and off (as local load runs post).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { APPLICATION_LIMITS } from '../../../lib/domain/application-limits';
import { FORM_MIN_MS, issueFormToken } from '../../../lib/domain/form-token';
import { ddbClient } from '../../../lib/store/client';
import { holdImportQueueSends } from '../../helpers/held-import-queue';
import { startStack, type Stack } from '../../helpers/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());
const queued = holdImportQueueSends();

// RATE_LIMITS is read at each use (lib/config.ts); table-env.ts resets it before the next file.
it.each(['on', 'off'])(
  "limits %s: an accepted application reads the posting, writes only the limits' counters (none when off) to the table and sends one message",
  async (limits) => {
    const limitsOff = limits === 'off';
    if (limitsOff) process.env.RATE_LIMITS = 'off';
    else delete process.env.RATE_LIMITS;
    queued.sent.length = 0;
    const tenant = await stack.tenant();
    const token = await tenant.token(['*']);
    const req = await stack.call('POST', '/api/v1/requisitions', { token, body: { title: 'Engineer' } });
    const job = req.body.data.id as string;
    const put = await stack.call('PUT', `/api/v1/requisitions/${job}/posting`, {
      token,
      body: { published: true, description: 'Build things.', remote: 'no', questions: [], rules: [] },
    });
    expect(put.status).toBe(200);

    const commands: string[] = [];
    ddbClient.middlewareStack.add(
      (next, context) => async (args) => {
        const counter = JSON.stringify((args.input as { Key?: unknown }).Key ?? {}).includes('"APPLYLIMIT#');
        commands.push(`${String(context.commandName)}${counter ? ' APPLYLIMIT' : ''}`);
        return next(args);
      },
      { step: 'initialize', name: 'countApplicationCommands' },
    );
    try {
      const res = await stack.call('POST', `/api/boards/${tenant.slug}/jobs/${job}/applications`, {
        body: {
          name: 'Ada',
          email: 'ada@example.com',
          answers: {},
          consent: { accepted: true, text: 'ok', version: '1' },
          form_token: issueFormToken(process.env.FORM_TOKEN_SECRET!, tenant.slug, job, Date.now() - FORM_MIN_MS),
        },
      });
      expect(res.status).toBe(202);
    } finally {
      ddbClient.middlewareStack.remove('countApplicationCommands');
    }
    expect(commands.length).toBeGreaterThan(0);
    expect(commands.filter((c) => !/^(Get|BatchGet|Query)/.test(c))).toEqual(
      limitsOff ? [] : APPLICATION_LIMITS.map(() => 'UpdateItemCommand APPLYLIMIT'),
    );
    expect(queued.sent).toHaveLength(1);
  },
);
