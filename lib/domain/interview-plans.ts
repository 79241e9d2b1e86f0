/**
 * The interview plan routes: read a requisition's plan, replace it, or copy another requisition's.
 * Whoever may see the requisition reads its plan (a hiring manager on its team); the permission
 * table keeps the change to the recruiting roles. The step rules are interview-plan-rules.ts.
 */
import { NotFoundError } from '../errors';
import { newId, nowIso } from '../ids';
import type { InterviewPlan, PutInterviewPlanBody } from '../api/interview-plans';
import { getRequisitionAndPlan, writePlan } from '../store/interview-plans';
import { listUsers } from '../store/users';
import { copiedSteps, decidePlanSteps, EMPTY_PLAN, type StoredPlan } from './interview-plan-rules';
import { auditBy, type Principal } from './principal';
import { decideAndWrite } from './retry';
import { maySee, viewerOf } from './visibility';

const BUSY = 'interview plan is being changed concurrently; try again';

const toPlan = (reqId: string, plan: StoredPlan): InterviewPlan => ({ requisition_id: reqId, ...plan });

/** The requisition (seen by the caller) and its plan; a requisition they may not see is the 404 a missing one is. */
async function readSeen(p: Principal, reqId: string, field?: string) {
  const { requisition, plan } = await getRequisitionAndPlan(p.tenantId, reqId);
  if (!requisition || !maySee(viewerOf(p), { kind: 'requisition', requisition }))
    throw new NotFoundError('requisition', field ? { field } : undefined);
  return plan ?? EMPTY_PLAN;
}

/** One BatchGetItem: the requisition (for who may see it) and its plan. */
export async function getInterviewPlan(p: Principal, reqId: string): Promise<InterviewPlan> {
  return toPlan(reqId, await readSeen(p, reqId));
}

/**
 * Replace the plan: the workspace's members (one Query), the plan as it is, then one transaction
 * conditioned on the version read, so two editors never lose each other's step ids.
 */
export async function putInterviewPlan(p: Principal, reqId: string, body: PutInterviewPlanBody): Promise<InterviewPlan> {
  const [users, source] = await Promise.all([
    listUsers(p.tenantId),
    body.copy_from === undefined ? undefined : readSeen(p, body.copy_from, 'copy_from'),
  ]);
  const active = new Set(users.filter((u) => u.deactivated_at === undefined).map((u) => u.id));
  return decideAndWrite({
    state: readSeen(p, reqId),
    decide: (current) => {
      const steps = source ? copiedSteps(source, active, newId) : decidePlanSteps(current, body.steps ?? [], active, newId);
      return { write: { current, next: { steps, version: current.version + 1, updated_at: nowIso() } } };
    },
    write: async ({ current, next }) => {
      const audit = auditBy(p, 'requisition.interview_plan_updated', { type: 'requisition', id: reqId }, [
        { field: 'interview_plan', before: current.steps.map((s) => s.name), after: next.steps.map((s) => s.name) },
      ]);
      return { outcome: await writePlan(p.tenantId, reqId, current.version, next, audit), result: toPlan(reqId, next) };
    },
    again: () => readSeen(p, reqId),
    busy: BUSY,
  });
}
