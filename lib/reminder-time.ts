/**
 * When an interview's scorecard reminder is due: 9:00 on the first working day (Monday to Friday)
 * after the day it ended, in the interviewer's own time zone (else the interview's). Pure time
 * arithmetic, beside lib/ rather than in lib/domain, because the store keys each interview's due
 * item by it (lib/store/interview-due.ts) and the domain's rules read it
 * (lib/domain/interview-follow-up-rules.ts).
 */
/** The hour of the day, in the reader's zone, a reminder is sent. */
export const REMINDER_HOUR = 9;

const formats = new Map<string, Intl.DateTimeFormat>();
/** One formatter per zone, kept: a run reads the same few zones for every interview. Throws on an unknown zone. */
const formatOf = (timeZone: string) => {
  let f = formats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(timeZone, f);
  }
  return f;
};
const parts = (timeZone: string, ms: number) => {
  const f = formatOf(timeZone);
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

/** A zone's wall clock at an instant, as the calendar invitations write it. */
export type WallClock = { year: number; month: number; day: number; hour: number; minute: number; second: number };

/** The wall-clock time of an instant in a zone. */
export function wallClock(ms: number, timeZone: string): WallClock {
  const p = parts(timeZone, ms);
  return { year: p.y, month: p.m, day: p.d, hour: p.h, minute: p.min, second: p.s };
}

/** The zone's offset from UTC at an instant, in minutes (east positive). */
export const offsetMinutes = (ms: number, timeZone: string): number => Math.round(offsetAt(timeZone, ms) / 60_000);

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
    formatOf(timeZone);
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

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Every UTC offset in use falls on a quarter hour from -12:00 to +14:00. */
const OFFSETS = Array.from({ length: ((14 + 12) * 60) / 15 + 1 }, (_, i) => (-12 * 60 + i * 15) * MINUTE);
/** The largest daylight-saving jump in use (Antarctica/Troll's two hours). */
const MAX_DST_JUMP = 2 * HOUR;

/**
 * The earliest instant the reminder of an interview that ends at `end` can be due in any zone: its
 * due item is written then, before anyone's zone is read, so a zone an interviewer chooses later is
 * still in time (the run reads each interviewer's zone when the item comes due and waits for the
 * ones not due yet). A zone whose offset is `o` at the end has its reminder at 9:00 minus `o` of
 * the working day after its local date, give or take the daylight-saving change between the two.
 */
export function earliestReminderAt(end: string): string {
  const at = Date.parse(end);
  let earliest = Number.POSITIVE_INFINITY;
  for (const offset of OFFSETS) {
    const local = new Date(at + offset);
    const day = new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() + 1));
    while (day.getUTCDay() === 0 || day.getUTCDay() === 6) day.setUTCDate(day.getUTCDate() + 1);
    earliest = Math.min(earliest, day.getTime() + REMINDER_HOUR * HOUR - offset);
  }
  return new Date(earliest - MAX_DST_JUMP).toISOString();
}
