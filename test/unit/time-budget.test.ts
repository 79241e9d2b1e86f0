/** The time budget's rule (lib/time-budget.ts): a step fits when the time left covers twice the slowest call, and at least the floor. */
import { describe, expect, it } from 'vitest';
import { BusyError } from '../../lib/errors';
import { checkTimeBudget, MIN_RESERVE_MS, noteCallMs, timeLeftMs, withTimeBudget } from '../../lib/time-budget';

describe('time budget', () => {
  it('outside a request there is none: every step fits', () => {
    expect(timeLeftMs()).toBe(Number.POSITIVE_INFINITY);
    noteCallMs(60_000);
    expect(() => checkTimeBudget()).not.toThrow();
  });

  it('a step needs the floor while calls are quick, and twice the slowest call once one is slow', async () => {
    let left = MIN_RESERVE_MS;
    await withTimeBudget(
      () => left,
      async () => {
        noteCallMs(20);
        expect(() => checkTimeBudget()).not.toThrow();
        left = MIN_RESERVE_MS - 1;
        expect(() => checkTimeBudget()).toThrow(BusyError);
        noteCallMs(3_000);
        left = 5_999;
        expect(() => checkTimeBudget()).toThrow(BusyError);
        left = 6_000;
        expect(() => checkTimeBudget()).not.toThrow();
        // A quicker call later does not lower what is kept back.
        noteCallMs(10);
        left = 5_999;
        expect(() => checkTimeBudget()).toThrow(BusyError);
      },
    );
  });

  it('the refusal is a 429 busy with Retry-After, naming offset when an offset made the request long', async () => {
    await withTimeBudget(
      () => 0,
      async () => {
        const err = (() => {
          try {
            checkTimeBudget('offset');
          } catch (e) {
            return e as BusyError;
          }
        })();
        expect([err?.status, err?.code, err?.field, err?.headers['Retry-After']]).toEqual([429, 'busy', 'offset', '2']);
        expect(err?.message).toMatch(/next_cursor/);
      },
    );
  });

  it('each request has its own budget, also side by side', async () => {
    const seen = await Promise.all(
      [10_000, 0].map((left) =>
        withTimeBudget(
          () => left,
          async () => {
            await new Promise((r) => setImmediate(r));
            return timeLeftMs();
          },
        ),
      ),
    );
    expect(seen).toEqual([10_000, 0]);
  });
});
