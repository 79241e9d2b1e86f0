/** The time budget's rule (lib/time-budget.ts): a step fits when the time left covers the reserve. */
import { describe, expect, it } from 'vitest';
import { BusyError } from '../../lib/errors';
import { checkTimeBudget, TIME_RESERVE_MS, timeLeftMs, withTimeBudget } from '../../lib/time-budget';

describe('time budget', () => {
  it('outside a request there is none: every step fits', () => {
    expect(timeLeftMs()).toBe(Number.POSITIVE_INFINITY);
    expect(() => checkTimeBudget()).not.toThrow();
  });

  it('a step fits while the time left covers the reserve', async () => {
    let left = TIME_RESERVE_MS;
    await withTimeBudget(
      () => left,
      async () => {
        expect(() => checkTimeBudget()).not.toThrow();
        left = TIME_RESERVE_MS - 1;
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
