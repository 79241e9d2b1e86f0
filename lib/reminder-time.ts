/**
 * When an interview's scorecard reminder is due: 9:00 on the first working day (Monday to Friday)
 * after the day it ended, in the interview's time zone. Pure time arithmetic, beside lib/ rather
 * than in lib/domain, because the store keys each interview's due item by it
 * (lib/store/interview-due.ts) and the domain's rules read it (lib/domain/interview-follow-up-rules.ts).
 */
/** The hour of the day, in the interview's zone, a reminder is sent. */
export const REMINDER_HOUR = 9;

const parts = (timeZone: string, ms: number) => {
  const f = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  const got = Object.fromEntries(f.formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
  return {
    y: Number(got.year),
    m: Number(got.month),
    d: Number(got.day),
    h: Number(got.hour),
    min: Number(got.minute),
    s: Number(got.second),
  };
};

/** How far the zone's wall clock is ahead of UTC at the instant `ms`. */
function offsetAt(timeZone: string, ms: number): number {
  const p = parts(timeZone, ms);
  return Date.UTC(p.y, p.m - 1, p.d, p.h, p.min, p.s) - Math.floor(ms / 1000) * 1000;
}

/** The instant the zone's wall clock reads y-m-d h:00 (a daylight-saving change is taken as the offset after it). */
export function zonedInstant(timeZone: string, y: number, m: number, d: number, h: number): number {
  const wall = Date.UTC(y, m - 1, d, h);
  const first = wall - offsetAt(timeZone, wall);
  return wall - offsetAt(timeZone, first);
}

const zoneOrUtc = (timeZone: string) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return timeZone;
  } catch {
    return 'UTC';
  }
};

/** When the reminder of an interview that ends at `end` in `timeZone` is due (ISO UTC). */
export function reminderAt(end: string, timeZone: string): string {
  const zone = zoneOrUtc(timeZone);
  const local = parts(zone, Date.parse(end));
  const day = new Date(Date.UTC(local.y, local.m - 1, local.d + 1));
  while (day.getUTCDay() === 0 || day.getUTCDay() === 6) day.setUTCDate(day.getUTCDate() + 1);
  return new Date(zonedInstant(zone, day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate(), REMINDER_HOUR)).toISOString();
}
