/**
 * An import job polled until it ends: each GET is a real request, and the worker runs between
 * them. `polls` bounds the wait; the job's last answer is returned, completed or failed.
 */
import { expect } from 'vitest';
import type { Stack } from './stack';

export async function importFinished(stack: Stack, id: string, token: string, polls = 2000) {
  for (let i = 0; i < polls; i++) {
    const res = await stack.call('GET', `/api/v1/candidates/imports/${id}`, { token });
    expect(res.status, res.text).toBe(200);
    if (res.body.data.status === 'completed' || res.body.data.status === 'failed') return res.body.data;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error(`import ${id} did not end`);
}
