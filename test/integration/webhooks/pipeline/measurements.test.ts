/**
 * The webhook pipeline end to end through the local runtime, to real HTTPS receivers
 * (test/integration/webhooks/pipeline/fixture.ts). This file: event-to-delivery latency and
 * throughput, printed (asserted only as far as delivery).
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { percentile, signatureChecks, signatureFailures, startReceiver, until, workspace } from './fixture';

describe('latency and throughput (printed, not asserted beyond delivery)', () => {
  it('measures event-to-delivery latency over 50 events and a 200-event burst', async () => {
    const rx = await startReceiver();
    const perf = await workspace();
    await perf.endpoint(rx.url('/perf'), ['candidate.created']);
    const arrival = new Map<string, number>();
    rx.on('/perf', (hit, _req, res) => {
      arrival.set(hit.env.data.candidateId, hit.at);
      res.end('ok');
    });

    // Latency: 50 events paced 100 ms apart (open loop), API response -> receiver arrival.
    const sent: Array<{ id: string; respondedAt: number }> = [];
    for (let i = 0; i < 50; i++) {
      sent.push(await perf.candidate(`Latency ${i}`));
      await sleep(100);
    }
    await until('50 latency deliveries', () => sent.every((c) => arrival.has(c.id)));
    const latencies = sent.map((c) => arrival.get(c.id)! - c.respondedAt);
    const sorted = [...latencies].sort((x, y) => x - y);

    // Throughput: 200 creates, 20 in flight at a time, then wait for all 200 deliveries.
    const burstStart = performance.now();
    const ids: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        while (next < 200) {
          next++;
          ids.push((await perf.candidate(`Burst ${next}`)).id);
        }
      }),
    );
    const createdAll = performance.now();
    await until('200 burst deliveries', () => ids.every((id) => arrival.has(id)), 25_000);
    const times = ids.map((id) => arrival.get(id)!);
    const firstArrival = Math.min(...times);
    const lastArrival = Math.max(...times);
    const e2eS = (lastArrival - burstStart) / 1000;
    const rxS = (lastArrival - firstArrival) / 1000;

    console.log(
      [
        '[webhook measurements]',
        `latency over ${latencies.length} events, 100 ms apart (API response -> receiver): ` +
          `p50 ${percentile(sorted, 50).toFixed(0)} ms, p99 ${percentile(sorted, 99).toFixed(0)} ms, ` +
          `min ${sorted[0]!.toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms`,
        `burst of 200 (20 concurrent creates): creates took ${((createdAll - burstStart) / 1000).toFixed(2)} s; ` +
          `last delivery ${e2eS.toFixed(2)} s after the first create = ${(200 / e2eS).toFixed(1)} deliveries/s end to end; ` +
          `first->last arrival ${rxS.toFixed(2)} s = ${(199 / rxS).toFixed(1)} deliveries/s at the receiver`,
      ].join('\n  '),
    );

    const burst = rx.at('/perf').filter((h) => ids.includes(h.env.data.candidateId));
    expect(new Set(burst.map((h) => h.headers['webhook-id'])).size).toBe(200);
    expect(signatureFailures).toEqual([]);
  }, 40_000);
});

signatureChecks();
