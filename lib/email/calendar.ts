/**
 * iCalendar (RFC 5545) invitations, built with ical-generator: one VEVENT in a VCALENDAR whose
 * METHOD says what the message is (REQUEST: a new or changed event; CANCEL: it is off, RFC 5546).
 * Times are written in the event's IANA zone (`DTSTART;TZID=Europe/Berlin:20261130T100000`) with
 * the VTIMEZONE that RFC 5545 requires for every TZID, built here from the runtime's own zone
 * data (Intl), so no zone database ships in the bundle. Only a function that sends invitations
 * imports this module.
 */
import ical, {
  ICalAttendeeRole,
  ICalAttendeeStatus,
  ICalCalendarMethod,
  ICalEventStatus,
  type ICalTemporalPlainDateTimeStub,
  type ICalTemporalZonedDateTimeStub,
} from 'ical-generator';
import { offsetMinutes, wallClock, type WallClock as Parts } from '../reminder-time';

export interface CalendarInvitation {
  /** Stable for the life of the event: every update and the cancel carry the same one. */
  uid: string;
  /** Grows with every change (RFC 5545 3.8.7.4): clients keep the highest they have seen. */
  sequence: number;
  method: 'REQUEST' | 'CANCEL';
  /** Instants (epoch ms). */
  start: number;
  end: number;
  /** IANA zone the times are written in. */
  timeZone: string;
  summary: string;
  description?: string;
  location?: string | null;
  organizer: { name: string; email: string };
  attendees: readonly { email: string; name?: string }[];
  /** DTSTAMP: when this message was made. */
  stamp: number;
}

const pad = (n: number, w = 2) => String(Math.abs(n)).padStart(w, '0');
const icsLocal = (p: Parts) => `${pad(p.year, 4)}${pad(p.month)}${pad(p.day)}T${pad(p.hour)}${pad(p.minute)}${pad(p.second)}`;
const icsOffset = (min: number) => `${min < 0 ? '-' : '+'}${pad(Math.trunc(Math.abs(min) / 60))}${pad(Math.abs(min) % 60)}`;

const DAY = 86_400_000;

/** The instants in [from, to) where the zone's offset changes, to the minute. */
function transitions(timeZone: string, from: number, to: number): { at: number; before: number; after: number }[] {
  const out: { at: number; before: number; after: number }[] = [];
  let prev = offsetMinutes(from, timeZone);
  for (let t = from + DAY; t < to + DAY; t += DAY) {
    const off = offsetMinutes(t, timeZone);
    if (off === prev) continue;
    let lo = t - DAY;
    let hi = t;
    while (hi - lo > 60_000) {
      const mid = lo + Math.floor((hi - lo) / 120_000) * 60_000;
      if (offsetMinutes(mid, timeZone) === prev) lo = mid;
      else hi = mid;
    }
    out.push({ at: hi, before: prev, after: off });
    prev = off;
  }
  return out;
}

/**
 * A VTIMEZONE for `timeZone` that is exact from a year before `around` to a year after it: one
 * observance from the start of that span, then one per offset change in it (DAYLIGHT when the
 * offset grows, STANDARD when it shrinks). Enough for any client to place an event in the span.
 */
export function vtimezone(timeZone: string, around: number): string {
  const from = around - 366 * DAY;
  const to = around + 366 * DAY;
  const first = offsetMinutes(from, timeZone);
  const lines = [
    'BEGIN:VTIMEZONE',
    `TZID:${timeZone}`,
    'BEGIN:STANDARD',
    `DTSTART:${icsLocal(wallClock(from, timeZone))}`,
    `TZOFFSETFROM:${icsOffset(first)}`,
    `TZOFFSETTO:${icsOffset(first)}`,
    'END:STANDARD',
  ];
  for (const t of transitions(timeZone, from, to)) {
    const kind = t.after > t.before ? 'DAYLIGHT' : 'STANDARD';
    // An observance starts at the local time it begins, in the offset in force before it.
    const local = wallClock(t.at - 60_000, timeZone);
    const start = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute) + 60_000;
    const s = new Date(start);
    lines.push(
      `BEGIN:${kind}`,
      `DTSTART:${icsLocal({ year: s.getUTCFullYear(), month: s.getUTCMonth() + 1, day: s.getUTCDate(), hour: s.getUTCHours(), minute: s.getUTCMinutes(), second: 0 })}`,
      `TZOFFSETFROM:${icsOffset(t.before)}`,
      `TZOFFSETTO:${icsOffset(t.after)}`,
      `END:${kind}`,
    );
  }
  lines.push('END:VTIMEZONE');
  return lines.join('\r\n');
}

/**
 * An instant in a zone, shaped as the Temporal.ZonedDateTime ical-generator accepts: with a plain
 * Date and a zone it would write the process's own wall clock, not the zone's.
 */
function zoned(ms: number, timeZone: string): ICalTemporalZonedDateTimeStub {
  const p = wallClock(ms, timeZone);
  const iso = new Date(ms).toISOString();
  const plain: ICalTemporalPlainDateTimeStub = {
    ...p,
    toPlainDate: () => ({ year: p.year, month: p.month, day: p.day, toJSON: () => iso.slice(0, 10), toString: () => iso.slice(0, 10) }),
    toZonedDateTime: (tz: string) => zoned(ms, tz),
    toJSON: () => icsLocal(p),
    toString: () => icsLocal(p),
  };
  return {
    ...p,
    timeZoneId: timeZone,
    toPlainDateTime: () => plain,
    withTimeZone: (tz: string) => zoned(ms, tz),
    toInstant: () => ({ epochMilliseconds: ms, toJSON: () => iso, toString: () => iso, toZonedDateTimeISO: (tz: string) => zoned(ms, tz) }),
    toJSON: () => iso,
    toString: () => iso,
  };
}

/** The .ics text of an invitation or its cancellation. */
export function invitationIcs(inv: CalendarInvitation): string {
  const cal = ical({
    prodId: { company: 'Talent Pipeline', product: 'Interviews', language: 'EN' },
    method: inv.method === 'CANCEL' ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST,
    // No calendar-wide zone: with one, ical-generator writes DTSTAMP in it, and RFC 5545 wants UTC there.
    timezone: { name: null, generator: (tz) => vtimezone(tz, inv.start) },
  });
  cal.createEvent({
    id: inv.uid,
    sequence: inv.sequence,
    start: zoned(inv.start, inv.timeZone),
    end: zoned(inv.end, inv.timeZone),
    timezone: inv.timeZone,
    stamp: new Date(inv.stamp),
    summary: inv.summary,
    description: inv.description ?? null,
    location: inv.location ?? null,
    organizer: { name: inv.organizer.name, email: inv.organizer.email },
    status: inv.method === 'CANCEL' ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    attendees: inv.attendees.map((a) => ({
      email: a.email,
      ...(a.name && { name: a.name }),
      role: ICalAttendeeRole.REQ,
      status: ICalAttendeeStatus.NEEDSACTION,
      rsvp: inv.method === 'REQUEST',
    })),
  });
  return cal.toString();
}
