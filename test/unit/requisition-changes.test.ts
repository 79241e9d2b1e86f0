/**
 * Requisition field and status changes as pure rules (lib/domain/requisition-changes.ts
 * decideFields, decideStatus), no DynamoDB: If-Match, headcount below hires, stale status, the
 * matrix and the audit entry built from what was read.
 */
import { describe, expect, it } from 'vitest';

process.env.TABLE_NAME ??= 'unused';
const { HeadcountBelowHiresError } = await import('../../lib/domain/requisition-rules');
const { decideFields, decideStatus } = await import('../../lib/domain/requisition-changes');
const { InvalidTransitionError, NotFoundError, StaleRequisitionError, StaleStatusError } = await import('../../lib/errors');
const { counter } = await import('../../lib/store/table');
type RequisitionItem = import('../../lib/store/requisitions').RequisitionItem;

const AT = '2026-11-27T12:00:00.000Z';
const SYSTEM = { type: 'system' as const };
const item = (over: Record<string, unknown> = {}): RequisitionItem =>
  ({ id: 'r1', title: 'Designer', status: 'open', version: 4, headcount: 3, [counter.stage('placed')]: 2, ...over }) as RequisitionItem;
const fields = (current: RequisitionItem | undefined, patch: object, ifVersion?: number) =>
  decideFields(current, patch, { ifVersion, actor: SYSTEM, at: AT, auditFields: ['title', 'headcount'] });
const refusal = (d: object) => ('refuse' in d ? (d as { refuse: Error }).refuse : undefined);

describe('decideFields', () => {
  it('If-Match naming another version is a 412; a missing requisition a 404', () => {
    expect(refusal(fields(item(), { title: 'X' }, 3))).toBeInstanceOf(StaleRequisitionError);
    expect(refusal(fields(undefined, { title: 'X' }))).toBeInstanceOf(NotFoundError);
  });

  it('a headcount below the hires is refused; at the hires it is written with the next version', () => {
    expect(refusal(fields(item(), { headcount: 1 }))).toBeInstanceOf(HeadcountBelowHiresError);
    const d = fields(item(), { headcount: 2 }, 4);
    expect('write' in d && d.write).toMatchObject({ set: { headcount: 2 }, version: 5 });
  });

  it('nothing to change writes nothing; the audit names what changed', () => {
    expect(fields(item(), { title: 'Designer' })).toEqual({ done: { item: item() } });
    const base = {
      action: 'requisition.updated',
      actor: { type: 'system' as const, id: 'admin-cli' },
      target: { type: 'requisition', id: 'r1' },
    };
    const d = decideFields(item(), { title: 'Lead' }, { actor: SYSTEM, at: AT, audit: base, auditFields: ['title', 'headcount'] });
    expect('write' in d && d.write.audit).toEqual({ ...base, changes: [{ field: 'title', before: 'Designer', after: 'Lead' }] });
  });
});

describe('decideStatus', () => {
  const status = (current: RequisitionItem | undefined, to: 'open' | 'on_hold' | 'draft', fromStatus?: 'open' | 'on_hold') =>
    decideStatus(current, to, { fromStatus, actor: SYSTEM, at: AT, reason: to === 'on_hold' ? 'budget' : undefined });

  it('a stale from_status, a missing requisition and a change off the matrix are refused', () => {
    expect(refusal(status(item({ status: 'on_hold' }), 'open', 'open'))).toBeInstanceOf(StaleStatusError);
    expect(refusal(status(undefined, 'open'))).toBeInstanceOf(NotFoundError);
    expect(refusal(status(item(), 'draft'))).toBeInstanceOf(InvalidTransitionError);
  });

  it('the current status writes nothing; a change goes to the next version with its reason', () => {
    expect(status(item(), 'open')).toEqual({ done: { item: item() } });
    const d = status(item(), 'on_hold');
    expect('write' in d && d.write).toMatchObject({ to: 'on_hold', version: 5, reason: 'budget' });
  });
});
