/**
 * Shared setup of the DynamoDB call-count tests (test/integration/calls/*.test.ts). Every DynamoDB
 * command the handlers send goes through the one shared client, so a middleware on it counts
 * them into `sent`. Each test file calls `useCallsFixture()` at its top and gets its own stack
 * and recorder: in the shared graph this module loads once per worker, not once per file.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { COUNTING_STACK, recordDynamoDbCommands, type Stack, startStack } from '../../helpers/stack';

export let stack: Stack;
/** The names of the commands sent since a test last emptied it. */
export const sent: string[] = [];

/** Registers the file's set-up and tear-down: call it at the top of each test file. */
export function useCallsFixture() {
  beforeAll(async () => {
    sent.length = 0;
    stack = await startStack(COUNTING_STACK);
    await recordDynamoDbCommands(sent);
  }, 300_000);
  afterAll(() => stack.close());
}

/**
 * The DynamoDB commands one request sends, in the order sent, with its answer: `sent` is emptied
 * first, and the request must succeed (a refusal would count a different path's calls).
 */
export async function countCalls(
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  sent.length = 0;
  const res = await stack.call(method, path, opts);
  expect(res.status, res.text).toBeLessThan(300);
  return { commands: [...sent], body: res.body, res };
}
