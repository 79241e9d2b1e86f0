/**
 * Times as a person reads them: in the viewer's own zone (their account's, else the browser's), or
 * in a zone chosen for an interview; and the instant a wall-clock time names in a zone. Pure (Intl
 * only, and the own zone the app sets), so the unit tests run it.
 */
import { ownZone } from './own-zone';

/** The zone the browser runs in. */
export const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The viewer's own zone: the one they set on their account, else the browser's. */
export const viewerZone = () => ownZone() ?? browserZone();

/** Every zone the browser knows, with the viewer's and the browser's first if the list lacks them. */
export function zones(): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const missing = [...new Set([viewerZone(), browserZone()])].filter((z) => !known.includes(z));
  return [...missing, ...known];
}

const dayFmt = (zone: string) =>
  new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: zone });
const timeFmt = (zone: string) =>
  new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: zone });

/** "Tue, 1 Dec 2026, 10:00–11:00" in `zone`. */
export function span(start: string, end: string, zone: string): string {
  const s = new Date(start);
  return `${dayFmt(zone).format(s)}, ${timeFmt(zone).format(s)}–${timeFmt(zone).format(new Date(end))}`;
}

/** The calendar day of `iso` in `zone`, as YYYY-MM-DD. */
export const dayIn = (iso: string | Date, zone: string) =>
  new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: zone }).format(new Date(iso));

/** How far `zone` is ahead of UTC at `at`, in milliseconds. */
function offsetAt(at: number, zone: string): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    })
      .formatToParts(new Date(at))
      .map((p) => [p.type, Number(p.value)]),
  ) as Record<string, number>;
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!) - Math.floor(at / 1000) * 1000;
}

/**
 * The instant a wall-clock time (`YYYY-MM-DDTHH:MM`, as a datetime-local field gives it) names
 * in `zone`. Around a daylight-saving change the offset is read again at the first guess; a time
 * the clocks skip lands an hour later, as calendars place it.
 */
export function instantOf(local: string, zone: string): Date | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local);
  if (!m) return undefined;
  const wall = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!);
  const first = wall - offsetAt(wall, zone);
  return new Date(wall - offsetAt(first, zone));
}

/** Today's midnight in the viewer's zone, as an instant: the start of "My interviews". */
export const startOfToday = () => {
  const d = new Date();
  d.setHours(0, 0, 0, 0);
  return d;
};
