/**
 * The console's times (console/src/zones.ts): the instant a wall-clock time names in a chosen
 * zone, across offsets and both daylight-saving changes, and a time shown in a zone.
 */
import { describe, expect, it } from 'vitest';
import { dayIn, instantOf, span } from '../../console/src/zones';

describe('instantOf', () => {
  it('reads a wall-clock time in the zone given, whatever the offset that day', () => {
    expect(instantOf('2026-12-01T10:00', 'America/New_York')?.toISOString()).toBe('2026-12-01T15:00:00.000Z');
    expect(instantOf('2026-07-01T10:00', 'America/New_York')?.toISOString()).toBe('2026-07-01T14:00:00.000Z');
    expect(instantOf('2026-12-01T09:00', 'Asia/Tokyo')?.toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(instantOf('2026-12-01T09:00', 'Asia/Kolkata')?.toISOString()).toBe('2026-12-01T03:30:00.000Z');
    expect(instantOf('2026-12-01T09:00', 'UTC')?.toISOString()).toBe('2026-12-01T09:00:00.000Z');
  });

  it('on the days the clocks change: the hours either side, a skipped time an hour on, a repeated one the later', () => {
    // Berlin: 02:00 CET became 03:00 CEST on 29 March 2026 (01:00Z).
    expect(instantOf('2026-03-29T01:30', 'Europe/Berlin')?.toISOString()).toBe('2026-03-29T00:30:00.000Z');
    expect(instantOf('2026-03-29T03:30', 'Europe/Berlin')?.toISOString()).toBe('2026-03-29T01:30:00.000Z');
    expect(instantOf('2026-03-29T02:30', 'Europe/Berlin')?.toISOString()).toBe('2026-03-29T01:30:00.000Z');
    // 03:00 CEST became 02:00 CET on 25 October 2026 (01:00Z): 02:30 happened twice.
    expect(instantOf('2026-10-25T01:30', 'Europe/Berlin')?.toISOString()).toBe('2026-10-24T23:30:00.000Z');
    expect(instantOf('2026-10-25T02:30', 'Europe/Berlin')?.toISOString()).toBe('2026-10-25T01:30:00.000Z');
    expect(instantOf('2026-10-25T03:30', 'Europe/Berlin')?.toISOString()).toBe('2026-10-25T02:30:00.000Z');
    // New York springs forward on 8 March 2026 at 02:00 local (07:00Z).
    expect(instantOf('2026-03-08T09:00', 'America/New_York')?.toISOString()).toBe('2026-03-08T13:00:00.000Z');
  });

  it('refuses what is not a date and a time', () => {
    expect(instantOf('', 'Europe/Berlin')).toBeUndefined();
    expect(instantOf('2026-12-01', 'Europe/Berlin')).toBeUndefined();
  });
});

describe('a time shown in a zone', () => {
  it('names the day and the hours there', () => {
    const start = '2026-12-01T23:30:00.000Z';
    const end = '2026-12-02T00:30:00.000Z';
    expect(span(start, end, 'UTC')).toMatch(/^Tue,? 1 Dec 2026, 23:30–00:30$/);
    expect(span(start, end, 'Asia/Tokyo')).toMatch(/^Wed,? 2 Dec 2026, 08:30–09:30$/);
    expect(dayIn(start, 'UTC')).toBe('2026-12-01');
    expect(dayIn(start, 'Asia/Tokyo')).toBe('2026-12-02');
  });
});

describe("the viewer's zone", () => {
  it('is the one the member set on their account, else the browser’s', async () => {
    const { setOwnZone } = await import('../../console/src/own-zone');
    const { browserZone, viewerZone, zones } = await import('../../console/src/zones');
    const other = browserZone() === 'Asia/Tokyo' ? 'America/Los_Angeles' : 'Asia/Tokyo';
    setOwnZone(other);
    try {
      expect(viewerZone()).toBe(other);
      expect(zones()).toContain(other);
      // An alias the list names otherwise is offered first, so the picker can show it.
      setOwnZone('Asia/Kolkata');
      expect(zones()).toContain('Asia/Kolkata');
    } finally {
      setOwnZone(null);
    }
    expect(viewerZone()).toBe(browserZone());
  });
});
