/**
 * The delivery retry schedule (lib/webhooks/config.ts) without I/O: the default, its jitter, how
 * a receiver's Retry-After lengthens a delay but never shortens one, the cap below SQS's
 * visibility limit, and the parsing of WEBHOOK_RETRY_SCHEDULE.
 */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RETRY_SCHEDULE_S,
  MAX_DELAY_S,
  MAX_RETRY_AFTER_S,
  MAX_SCHEDULED_S,
  parseSchedule,
  retryDelayS,
} from '../../lib/webhooks/config';

describe('retry schedule', () => {
  const lo = () => 0;
  const hi = () => 1;

  it("DEFAULT_RETRY_SCHEDULE_S is Svix's schedule", () => {
    expect(DEFAULT_RETRY_SCHEDULE_S).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000]);
    expect(parseSchedule(undefined)).toEqual(DEFAULT_RETRY_SCHEDULE_S);
    expect(parseSchedule('')).toEqual(DEFAULT_RETRY_SCHEDULE_S);
  });

  it('jitter stays within ±20% of every slot and the attempt after the last has no delay', () => {
    const s = DEFAULT_RETRY_SCHEDULE_S;
    s.forEach((base, i) => {
      const attempt = i + 1;
      expect(retryDelayS(attempt, s, undefined, lo), `slot ${attempt} low`).toBe(Math.round(base * 0.8));
      expect(retryDelayS(attempt, s, undefined, hi), `slot ${attempt} high`).toBe(Math.min(Math.round(base * 1.2), MAX_DELAY_S));
      expect(
        retryDelayS(attempt, s, undefined, () => 0.5),
        `slot ${attempt} mid`,
      ).toBe(base);
      for (let k = 0; k < 50; k++) {
        const d = retryDelayS(attempt, s)!;
        expect(d).toBeGreaterThanOrEqual(Math.floor(base * 0.8));
        expect(d).toBeLessThanOrEqual(Math.ceil(base * 1.2));
      }
    });
    expect(retryDelayS(s.length + 1, s, undefined, lo)).toBeUndefined();
    expect(retryDelayS(s.length + 5, s)).toBeUndefined();
    expect(retryDelayS(1, [], undefined, lo)).toBeUndefined();
    expect(retryDelayS(1, [0], undefined, hi)).toBe(0);
    expect(retryDelayS(2, [0], undefined, hi)).toBeUndefined();
  });

  it('Retry-After lengthens a delay, is capped at MAX_RETRY_AFTER_S and never shortens the schedule', () => {
    expect(MAX_RETRY_AFTER_S).toBe(6 * 3600);
    // Lengthens: 0 s slot, receiver asks for 2 s.
    expect(retryDelayS(1, [0, 0, 0], 2_000, hi)).toBe(2);
    expect(retryDelayS(1, [5], 60_000, hi)).toBe(60);
    // Capped: asks for 10 h, gets 6 h.
    expect(retryDelayS(1, [5], 10 * 3600_000, hi)).toBe(MAX_RETRY_AFTER_S);
    // Never shortens: slot 300 s (240..360 with jitter), receiver says 1 s.
    expect(retryDelayS(2, DEFAULT_RETRY_SCHEDULE_S, 1_000, lo)).toBe(240);
    expect(retryDelayS(2, DEFAULT_RETRY_SCHEDULE_S, 0, hi)).toBe(360);
    // A long slot stays long even if Retry-After is capped below it.
    expect(retryDelayS(6, DEFAULT_RETRY_SCHEDULE_S, 10 * 3600_000, lo)).toBe(28_800);
    // Retry-After does not resurrect an exhausted schedule.
    expect(retryDelayS(2, [5], 2_000, hi)).toBeUndefined();
  });

  it('the result stays below the 12 h SQS visibility limit, with room for the attempt itself', () => {
    expect(MAX_DELAY_S).toBeLessThan(43_200);
    expect(retryDelayS(1, [MAX_SCHEDULED_S], undefined, hi)).toBe(MAX_DELAY_S);
    expect(retryDelayS(7, DEFAULT_RETRY_SCHEDULE_S, undefined, hi)).toBe(MAX_DELAY_S);
    expect(retryDelayS(1, [36_000], 12 * 3600_000, hi)).toBe(MAX_DELAY_S);
  });

  it('parseSchedule parses whole seconds and rejects garbage', () => {
    expect(parseSchedule('0,1,1')).toEqual([0, 1, 1]);
    expect(parseSchedule(' 5 , 300 ')).toEqual([5, 300]);
    expect(parseSchedule('36000')).toEqual([36_000]);
    for (const bad of ['abc', '1,x', '-1', '1.5', '36001', '43200', '5;10', '1e9', 'NaN', 'Infinity', '5 300']) {
      expect(() => parseSchedule(bad), bad).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
    }
  });

  // Regression: Number('') is 0, so empty entries once became immediate retries, and hex or
  // exponent forms passed as "whole seconds".
  it('parseSchedule rejects empty entries and non-decimal forms', () => {
    for (const bad of ['1,,2', ',', '5,300,', ' ', '0x10', '1e2']) {
      expect(() => parseSchedule(bad), JSON.stringify(bad)).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
    }
  });
});
