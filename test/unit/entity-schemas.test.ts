/**
 * The schemas and codec derived from the candidate's declaration (lib/entities/candidate.ts) are
 * the ones that were written by hand before it: the same JSON Schema (so the same OpenAPI
 * document), the same answer on a table of inputs (data, or issues with their paths and
 * messages), and the same domain object or CorruptItemError from a stored item. The hand-written
 * schemas and codec are kept below, frozen, as the reference.
 */
import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { Candidate, CreateCandidateBody, UpdateCandidateBody } from '../../lib/api/candidates';
import { createBody, responseOf, updateBody } from '../../lib/api/entity-schemas';
import { stageEnum, text, timestamp, uuid } from '../../lib/api/fields';
import { candidate, candidateFromItem } from '../../lib/entities/candidate';
import { STAGES } from '../../lib/model';
import { optStr, oneOf, str, type Item } from '../../lib/store/codec';

// ---- the hand-written reference, as it was --------------------------------------------------
const candidateEmail = z
  .email({ error: 'email must be an email address' })
  .check(z.maxLength(254, { error: 'email must be at most 254 characters' }));
const candidatePhone = z.string({ error: 'phone must be a string' }).check(
  z.trim(),
  z.regex(/^\+?[0-9 ().\-/]{3,40}$/, {
    error: 'phone must be 3 to 40 digits, spaces or + ( ) . - /',
  }),
);
const resumeUrl = z
  .url({ protocol: /^https?$/, error: 'resume_url must be an http(s) URL' })
  .check(z.maxLength(2048, { error: 'resume_url must be at most 2048 characters' }));
const HandCreate = z.strictObject({
  name: text('name', 200),
  email: z.optional(candidateEmail),
  phone: z.optional(candidatePhone),
  resume_url: z.optional(resumeUrl),
  req_id: z.optional(uuid('req_id')),
  stage: z._default(stageEnum, 'applied'),
});
const HandUpdate = z
  .strictObject({
    name: z.optional(text('name', 200)),
    email: z.optional(z.nullable(candidateEmail)),
    phone: z.optional(z.nullable(candidatePhone)),
    resume_url: z.optional(z.nullable(resumeUrl)),
    req_id: z.optional(z.nullable(uuid('req_id'))),
  })
  .check(
    z.refine((b) => Object.values(b).some((v) => v !== undefined), {
      error: 'body must change at least one of name, email, phone, resume_url, req_id',
    }),
  );
const erasedName = z.string().check(z.meta({ description: 'Empty once erased (erased_at).' }));
const erasedOptional = z.nullable(z.string()).check(z.meta({ description: 'Null once erased (erased_at).' }));
const HandCandidate = z.object({
  id: z.uuid(),
  name: erasedName,
  email: erasedOptional,
  phone: erasedOptional,
  stage: z.enum(STAGES),
  resume_url: erasedOptional,
  req_title: z.nullable(z.string()),
  req_id: z.nullable(z.uuid()),
  created_at: timestamp,
  updated_at: timestamp,
  stage_entered_at: timestamp,
  // Declared since: the person the candidate is.
  person_id: z
    .nullable(z.uuid())
    .check(z.meta({ description: 'The person this candidate is (GET /people/{id}); one person has a candidate per requisition.' })),
  // Declared since: where the candidate came from.
  source: z.nullable(z.string()).check(
    z.meta({
      description: 'Where the candidate came from: careers (an application), the src of the careers link, api, console or import.',
    }),
  ),
  erased_at: z.optional(timestamp),
});
function handToCandidate(item: Item) {
  return {
    id: str(item, 'id', 'candidate'),
    name: str(item, 'name', 'candidate'),
    email: optStr(item, 'email', 'candidate') ?? null,
    phone: optStr(item, 'phone', 'candidate') ?? null,
    stage: oneOf(item, 'stage', STAGES, 'candidate'),
    resume_url: optStr(item, 'resume_url', 'candidate') ?? null,
    req_title: optStr(item, 'req_title', 'candidate') ?? null,
    req_id: optStr(item, 'req_id', 'candidate') ?? null,
    created_at: str(item, 'created_at', 'candidate'),
    updated_at: str(item, 'updated_at', 'candidate'),
    stage_entered_at: optStr(item, 'stage_entered_at', 'candidate') ?? str(item, 'created_at', 'candidate'),
    person_id: optStr(item, 'person_id', 'candidate') ?? null,
    source: optStr(item, 'source', 'candidate') ?? null,
    // Declared since: an application's answers (never answered on their own).
    ...(typeof item.application === 'string' && { application: item.application }),
    ...(typeof item.erased_at === 'string' && { erased_at: item.erased_at }),
    // Declared since: the rejection's note (answered inside `rejection`, never on its own).
    ...(typeof item.rejection_note === 'string' && { rejection_note: item.rejection_note }),
  };
}
/** The API answer adds `rejection` to the declaration's answer. */
const CandidateAnswer = z.omit(Candidate, { rejection: true });

// ---- the comparison -----------------------------------------------------------------------------
const outcome = (s: z.ZodMiniType, v: unknown) => {
  const r = z.safeParse(s, v);
  return r.success ? { data: r.data } : { issues: r.error.issues.map((i) => ({ path: i.path, code: i.code, message: i.message })) };
};
const BODIES: unknown[] = [
  { name: 'Ada' },
  { name: '  Ada  ', email: 'ada@example.com', phone: '+44 (0)20 1234', resume_url: 'https://x.example/cv', stage: 'interviewed' },
  { name: '' },
  { name: '   ' },
  { name: '\u200b' },
  { name: 'A\u202Eb' },
  { name: 'A\nb' },
  { name: 7 },
  { name: 'a'.repeat(201) },
  { name: 'Ada', email: 'nope' },
  { name: 'Ada', email: `${'a'.repeat(250)}@x.io` },
  { name: 'Ada', phone: 'call me' },
  { name: 'Ada', phone: 12345 },
  { name: 'Ada', resume_url: 'ftp://x' },
  { name: 'Ada', resume_url: `https://x.example/${'a'.repeat(2048)}` },
  { name: 'Ada', stage: 'hired' },
  { name: 'Ada', req_id: 'x' },
  { name: 'Ada', req_id: '0190a0a0-0000-7000-8000-000000000001' },
  { name: 'Ada', extra: 1 },
  { name: 'Ada', email: null },
  {},
  { email: null },
  { email: undefined },
  { req_id: null, name: 'B' },
  { stage: 'applied' },
  { phone: ' 0123 ' },
  null,
  'Ada',
  [],
];

describe("the candidate's derived schemas equal the hand-written ones", () => {
  const derived = { create: createBody(candidate), update: updateBody(candidate), response: responseOf(candidate) };

  it('are the schemas lib/api/candidates.ts serves', () => {
    expect(CreateCandidateBody).toBeDefined();
    for (const io of ['input', 'output'] as const) {
      expect(z.toJSONSchema(CreateCandidateBody, { io })).toEqual(z.toJSONSchema(derived.create, { io }));
      expect(z.toJSONSchema(UpdateCandidateBody, { io })).toEqual(z.toJSONSchema(derived.update, { io }));
      expect(z.toJSONSchema(CandidateAnswer, { io })).toEqual(z.toJSONSchema(derived.response, { io }));
    }
  });

  it.each(['input', 'output'] as const)('give the same JSON Schema (%s), required fields in the same order', (io) => {
    expect(z.toJSONSchema(derived.create, { io })).toStrictEqual(z.toJSONSchema(HandCreate, { io }));
    expect(z.toJSONSchema(derived.update, { io })).toStrictEqual(z.toJSONSchema(HandUpdate, { io }));
    expect(z.toJSONSchema(derived.response, { io })).toStrictEqual(z.toJSONSchema(HandCandidate, { io }));
    expect(Object.keys(z.toJSONSchema(derived.create, { io }).properties!)).toEqual(
      Object.keys(z.toJSONSchema(HandCreate, { io }).properties!),
    );
  });

  it.each(BODIES.map((b) => [JSON.stringify(b), b]))('answer %s alike: same data, or the same issues and messages', (_, body) => {
    expect(outcome(derived.create, body)).toEqual(outcome(HandCreate, body));
    expect(outcome(derived.update, body)).toEqual(outcome(HandUpdate, body));
  });

  it('the codec reads a stored item as the hand-written codec did, and names the attribute of a corrupt one', () => {
    const item = {
      PK: 'T#t',
      SK: 'CAND#x',
      type: 'candidate',
      id: '0190a0a0-0000-7000-8000-000000000001',
      name: 'Ada',
      email: 'ada@example.com',
      stage: 'applied',
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-02T00:00:00.000Z',
    };
    const run = (f: (i: Item) => unknown, i: Item) => {
      try {
        return { ok: f(i) };
      } catch (e) {
        return { error: `${(e as Error).name}: ${(e as Error).message}` };
      }
    };
    const cases: Item[] = [
      item,
      { ...item, stage_entered_at: '2026-01-01T01:00:00.000Z', req_id: 'r', req_title: 'T', phone: '1', resume_url: 'https://x' },
      { ...item, erased_at: '2026-02-01T00:00:00.000Z', name: '', email: null },
      { ...item, stage: 'rejected', rejection_note: 'n' },
      { ...item, stage: 'secret' },
      { ...item, name: 7 },
      { ...item, phone: 7 },
      { ...item, created_at: undefined },
      { ...item, id: undefined },
    ];
    for (const i of cases) {
      const got = run(candidateFromItem, i);
      expect(got).toEqual(run(handToCandidate, i));
      // Same keys in the same order: answers are serialized from it.
      if ('ok' in got) expect(Object.keys(got.ok as object)).toEqual(Object.keys(handToCandidate(i)));
    }
    expect(run(candidateFromItem, { ...item, phone: 'secret-value', name: 42 }).error).not.toContain('secret');
  });
});

// The types: the derived ones are the hand-written ones (a difference fails tsc here).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
true satisfies Same<z.output<typeof CreateCandidateBody>, z.output<typeof HandCreate>>;
true satisfies Same<z.output<typeof UpdateCandidateBody>, z.output<typeof HandUpdate>>;
true satisfies Same<z.output<typeof CandidateAnswer>, z.output<typeof HandCandidate>>;
true satisfies Same<ReturnType<typeof candidateFromItem>, ReturnType<typeof handToCandidate>>;
