/**
 * The interview invitations, read back by an independent iCalendar parser (ical.js): a schedule,
 * a reschedule and a cancel share one UID with a growing SEQUENCE, carry the right METHOD and
 * STATUS, and place the interview at the same instants in its own zone, across a daylight-saving
 * change. Who gets which method, and that no message names anyone but its recipient.
 */
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { vtimezone } from '../../lib/email/calendar';
import { type InvitationChange, invitationMail, type Recipient, recipientsOf } from '../../lib/domain/interview-invitation-rules';
import { invitationText } from '../../lib/domain/interview-invitation-text';

const FROM = 'Talent Pipeline <no-reply@mail.talent.example>';
const ctx = { from: FROM, workspace: 'Acme Hiring', candidateName: 'Ada Lovelace' };
const base: InvitationChange = {
  interviewId: '6f1c2c55-6a1e-4a4e-9d43-3f0c8f3b9a10',
  candidateId: '0b4a2f8e-1111-4c2b-8f5e-2a1d3c4b5e6f',
  sequence: 0,
  event: 'interview.scheduled',
  status: 'scheduled',
  // 10:00-11:00 in Berlin, the Friday before the clocks go forward.
  start: '2027-03-26T09:00:00.000Z',
  end: '2027-03-26T10:00:00.000Z',
  timeZone: 'Europe/Berlin',
  stepName: 'Technical interview',
  location: 'https://meet.example.com/abc',
  interviewers: ['u1', 'u2'],
  dropped: [],
  inviteCandidate: true,
  at: '2027-03-01T12:00:00.000Z',
};
const alice: Recipient = { key: 'u1', kind: 'interviewer', email: 'alice@acme.example', method: 'REQUEST' };

/** The calendar part of a message, parsed: its method, the event, and the event's instants. */
function parsed(mail: ReturnType<typeof invitationMail>) {
  const part = mail.attachments!.find((a) => a.contentType.startsWith('text/calendar'))!;
  const file = mail.attachments!.find((a) => a.disposition === 'attachment')!;
  expect(file.content).toBe(part.content);
  expect(file.filename).toMatch(/\.ics$/);
  const cal = new ICAL.Component(ICAL.parse(String(part.content)));
  for (const tz of cal.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(new ICAL.Timezone(tz));
  const vevent = cal.getFirstSubcomponent('vevent')!;
  const ev = new ICAL.Event(vevent);
  return {
    contentType: part.contentType,
    method: cal.getFirstPropertyValue('method'),
    uid: ev.uid,
    sequence: ev.sequence,
    status: vevent.getFirstPropertyValue('status'),
    tzid: vevent.getFirstProperty('dtstart')!.getParameter('tzid'),
    localStart: ev.startDate.toString(),
    start: ev.startDate.toJSDate().toISOString(),
    end: ev.endDate.toJSDate().toISOString(),
    attendees: vevent.getAllProperties('attendee').map((p) => String(p.getFirstValue()).toLowerCase()),
    stamp: vevent.getFirstProperty('dtstamp')!.toICALString(),
    text: String(part.content),
  };
}

describe('interview invitations, parsed back', () => {
  const scheduled = parsed(invitationMail(base, alice, ctx));
  // Moved to the Monday after the change to summer time: 14:00-15:00 Berlin is 12:00 UTC now.
  const moved = parsed(
    invitationMail(
      { ...base, sequence: 1, event: 'interview.updated', start: '2027-03-29T12:00:00.000Z', end: '2027-03-29T13:00:00.000Z' },
      alice,
      ctx,
    ),
  );
  const cancelled = parsed(
    invitationMail(
      {
        ...base,
        sequence: 2,
        event: 'interview.cancelled',
        status: 'cancelled',
        start: '2027-03-29T12:00:00.000Z',
        end: '2027-03-29T13:00:00.000Z',
      },
      { ...alice, method: 'CANCEL' },
      ctx,
    ),
  );

  it('keeps one UID per interview, of its id at the sender domain, and a growing SEQUENCE', () => {
    expect(scheduled.uid).toBe(`${base.interviewId}@mail.talent.example`);
    expect(moved.uid).toBe(scheduled.uid);
    expect(cancelled.uid).toBe(scheduled.uid);
    expect([scheduled.sequence, moved.sequence, cancelled.sequence]).toEqual([0, 1, 2]);
  });

  it('asks with METHOD:REQUEST, and cancels with METHOD:CANCEL and STATUS:CANCELLED', () => {
    expect([scheduled.method, scheduled.status]).toEqual(['REQUEST', 'CONFIRMED']);
    expect([moved.method, moved.status]).toEqual(['REQUEST', 'CONFIRMED']);
    expect([cancelled.method, cancelled.status]).toEqual(['CANCEL', 'CANCELLED']);
    expect(scheduled.contentType).toBe('text/calendar; method=REQUEST; charset=UTF-8');
    expect(cancelled.contentType).toBe('text/calendar; method=CANCEL; charset=UTF-8');
  });

  it('writes the times in the interview zone and the parser places them at the same instants, across the DST change', () => {
    expect(scheduled.tzid).toBe('Europe/Berlin');
    expect(scheduled.localStart).toBe('2027-03-26T10:00:00');
    expect([scheduled.start, scheduled.end]).toEqual([base.start, base.end]);
    expect(moved.localStart).toBe('2027-03-29T14:00:00');
    expect([moved.start, moved.end]).toEqual(['2027-03-29T12:00:00.000Z', '2027-03-29T13:00:00.000Z']);
    expect(scheduled.stamp).toBe('DTSTAMP:20270301T120000Z');
  });

  it('places times right in a zone west of UTC and one with a half-hour offset', () => {
    for (const [timeZone, local] of [
      ['America/New_York', '2027-03-26T05:00:00'],
      ['Asia/Kolkata', '2027-03-26T14:30:00'],
    ] as const) {
      const p = parsed(invitationMail({ ...base, timeZone }, alice, ctx));
      expect([p.tzid, p.localStart, p.start]).toEqual([timeZone, local, base.start]);
    }
  });

  it("names its recipient as the one attendee, and carries the candidate's name only in the interviewers' invitation", () => {
    expect(scheduled.attendees).toEqual(['mailto:alice@acme.example']);
    expect(scheduled.text).toContain('Ada Lovelace');
    const own = invitationMail(base, { key: 'candidate', kind: 'candidate', email: 'ada@home.example', method: 'REQUEST' }, ctx);
    const p = parsed(own);
    expect(p.attendees).toEqual(['mailto:ada@home.example']);
    expect(p.text).not.toContain('alice@acme.example');
    expect(own.subject).toBe('Technical interview with Acme Hiring');
    expect(`${own.text}${own.html}`).not.toContain('alice');
  });
});

describe('vtimezone', () => {
  it('has one observance per offset change in the two years around the event, in RFC 5545 local times', () => {
    const v = vtimezone('Europe/Berlin', Date.parse('2027-03-26T09:00:00Z'));
    expect(v).toContain('BEGIN:DAYLIGHT\r\nDTSTART:20270328T020000\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200');
    expect(v).toContain('BEGIN:STANDARD\r\nDTSTART:20271031T030000\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100');
    expect(vtimezone('Asia/Tokyo', 0).match(/BEGIN:(STANDARD|DAYLIGHT)/g)).toEqual(['BEGIN:STANDARD']);
  });
});

describe('recipientsOf', () => {
  const emails: Record<string, string> = { u1: 'alice@acme.example', u2: 'bob@acme.example', u3: 'carol@acme.example' };
  const of = (c: Partial<InvitationChange>, candidate: string | null = 'ada@home.example') =>
    recipientsOf({ ...base, ...c }, (id) => emails[id], candidate ?? undefined).map((r) => [r.key, r.method]);

  it('invites every interviewer, and the candidate only when asked', () => {
    expect(of({})).toEqual([
      ['u1', 'REQUEST'],
      ['u2', 'REQUEST'],
      ['candidate', 'REQUEST'],
    ]);
    expect(of({ inviteCandidate: false })).toEqual([
      ['u1', 'REQUEST'],
      ['u2', 'REQUEST'],
    ]);
  });

  it('cancels for an interviewer taken off, and for everyone when the interview is cancelled', () => {
    expect(of({ event: 'interview.updated', interviewers: ['u1', 'u3'], dropped: ['u2'], inviteCandidate: false })).toEqual([
      ['u1', 'REQUEST'],
      ['u3', 'REQUEST'],
      ['u2', 'CANCEL'],
    ]);
    expect(of({ status: 'cancelled' })).toEqual([
      ['u1', 'CANCEL'],
      ['u2', 'CANCEL'],
      ['candidate', 'CANCEL'],
    ]);
  });

  it('leaves out a member who is gone and a candidate who cannot be reached (erased)', () => {
    expect(of({ interviewers: ['u1', 'gone'] }, null)).toEqual([['u1', 'REQUEST']]);
  });
});

describe("the time in the reader's own zone", () => {
  const emails: Record<string, string> = { u1: 'alice@acme.example', u2: 'bob@acme.example' };
  const zones: Record<string, string> = { u2: 'America/New_York' };
  const [a, b, cand] = recipientsOf(
    base,
    (id) => emails[id],
    'ada@example.com',
    (id) => zones[id],
  );

  it("an interviewer with a zone of their own reads the time in it, and where it was booked; the others, the interview's", () => {
    expect(a!.timeZone).toBeUndefined();
    expect(b!.timeZone).toBe('America/New_York');
    const bob = invitationMail(base, b!, ctx).text.split('\n');
    expect(bob).toContain('When: Friday, 26 March 2027, 05:00–06:00 (America/New_York)');
    expect(bob).toContain('Booked as: Friday, 26 March 2027, 10:00–11:00 (Europe/Berlin)');
    const alice = invitationMail(base, a!, ctx).text.split('\n');
    expect(alice).toContain('When: Friday, 26 March 2027, 10:00–11:00 (Europe/Berlin)');
    expect(alice.some((l) => l.startsWith('Booked as'))).toBe(false);
    expect(invitationMail(base, cand!, ctx).text).toContain('When: Friday, 26 March 2027, 10:00–11:00 (Europe/Berlin)');
  });

  it("the calendar part keeps the interview's zone: the client places it in the reader's", () => {
    expect(parsed(invitationMail(base, b!, ctx))).toMatchObject({ tzid: 'Europe/Berlin', start: base.start, end: base.end });
  });

  it('the preview (invitationText) says word for word what the message says', () => {
    const mail = invitationMail(base, b!, ctx);
    const words = invitationText(base, b!, ctx);
    expect([words.subject, words.lines.join('\n')]).toEqual([mail.subject, mail.text]);
  });
});
