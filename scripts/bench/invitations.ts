/**
 * Interview invitations, measured locally (`npm run bench`, section 14; alone: `tsx
 * scripts/bench/invitations.ts`): an interview with 4 interviewers and the candidate invited is
 * scheduled through the domain function the route calls, on DynamoDB Local with its stream, and
 * the clock runs until all 5 invitations are in the local SES's store (stream poller -> fan-out ->
 * invitation queue -> worker -> SES), as `npm start` runs them. Also the time the schedule call
 * itself took, which mail does not lengthen. Median of a few rounds. Printed, never asserted.
 */
import '../../dev/quiet-sdk';
import '../../dev/untraced';
import { setTimeout as sleep } from 'node:timers/promises';
import { jitFromEnv, startDynamoDbLocal } from '../../dev/dynamodb';
import { ensureTable, localClient } from '../../dev/table';
import { pct } from './stats';

const ROUNDS = Number(process.env.BENCH_INVITATION_ROUNDS ?? 5);

const ddbLocal = await startDynamoDbLocal({ jit: jitFromEnv('full') });
const { startLocalSes, sentMail } = await import('../../dev/ses');
const ses = await startLocalSes();
try {
  await ensureTable(localClient(ddbLocal.endpoint), 'bench', { stream: true });
  Object.assign(process.env, {
    TABLE_NAME: 'bench',
    DYNAMODB_ENDPOINT: ddbLocal.endpoint,
    POWERTOOLS_LOG_LEVEL: 'ERROR',
    SES_ENDPOINT: ses.endpoint,
    MAIL_FROM: 'Talent Pipeline <no-reply@talent-pipeline.localhost>',
  });
  const { startWebhookPipeline } = await import('../../dev/webhooks');
  const pipeline = await startWebhookPipeline({});
  const { createTenant } = await import('../../lib/store/tenants');
  const { createUser } = await import('../../lib/store/users');
  const { createRequisition } = await import('../../lib/domain/requisitions');
  const { putInterviewPlan } = await import('../../lib/domain/interview-plans');
  const { createCandidate } = await import('../../lib/domain/candidates');
  const { createInterview } = await import('../../lib/domain/interviews');
  // Bodies as the routes parse them (defaults filled in).
  const { CreateRequisitionBody } = await import('../../lib/api/requisitions');
  const { PutInterviewPlanBody } = await import('../../lib/api/interview-plans');
  const { CreateCandidateBody } = await import('../../lib/api/candidates');
  const { CreateInterviewBody } = await import('../../lib/api/interviews');
  const tenant = await createTenant('bench', 'Bench');
  const admin = await createUser(tenant.id, 'admin@bench.example', 'x', 'admin');
  const p = { kind: 'session', tenantId: tenant.id, tenantSlug: 'bench', userId: admin.id, email: admin.email, role: 'admin' } as const;
  const panel = await Promise.all([1, 2, 3, 4].map((i) => createUser(tenant.id, `interviewer-${i}@bench.example`, 'x', 'interviewer')));
  const req = await createRequisition(p, CreateRequisitionBody.parse({ title: 'Bench Engineer' }));
  const plan = await putInterviewPlan(
    p,
    req.id,
    PutInterviewPlanBody.parse({
      steps: [{ name: 'Panel', stage: 'interview_scheduled', duration_minutes: 60, interviewers: panel.map((u) => u.id) }],
    }),
  );
  const totals: number[] = [];
  const calls: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const cand = await createCandidate(
      p,
      CreateCandidateBody.parse({ name: `Bench ${round}`, email: `bench-${round}@home.example`, req_id: req.id }),
    );
    const before = (await sentMail(ses.endpoint)).length;
    const day = String(1 + round).padStart(2, '0');
    const t0 = performance.now();
    await createInterview(
      p,
      cand.id,
      CreateInterviewBody.parse({
        step_id: plan.steps[0]!.id,
        start: `2027-06-${day}T09:00:00Z`,
        end: `2027-06-${day}T10:00:00Z`,
        time_zone: 'Europe/Berlin',
        invite_candidate: true,
      }),
    );
    calls.push(performance.now() - t0);
    // Polled every 5 ms: the figure is the arrival, give or take that.
    while ((await sentMail(ses.endpoint)).length < before + 5) {
      if (performance.now() - t0 > 30_000) throw new Error('the 5 invitations did not arrive within 30 s');
      await sleep(5);
    }
    totals.push(performance.now() - t0);
  }
  const median = (xs: number[]) => pct(xs, 50);
  console.log(
    `  4 interviewers + candidate: all 5 invitations in the local SES after ${median(totals).toFixed(0)} ms (median of ${ROUNDS}); the schedule call itself ${median(calls).toFixed(0)} ms`,
  );
  console.log(`RESULT total=${median(totals).toFixed(0)} call=${median(calls).toFixed(0)} rounds=${ROUNDS}`);
  await pipeline.stop();
} finally {
  await ses.stop();
  await ddbLocal.stop();
}
