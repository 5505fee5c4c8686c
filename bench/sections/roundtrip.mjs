// Section 1: one question, tool call to tool result, over loopback, beside a bare `ws` exchange
// of frames the same size as ours. Runs alternate A/B/A/B after a warm-up of each.
import { startAskseam } from '../lib/askseam.mjs';
import { startBarePair } from '../lib/bare.mjs';
import { figure } from '../lib/figure.mjs';
import { interleave, quantile } from '../lib/stats.mjs';

const SECTION = 'roundtrip';

export async function run(config) {
  const { warmup, rounds, perRound } = config.roundTrip;
  const ours = await startAskseam();

  // Learn the exact frame sizes our protocol puts on the wire for this question.
  ours.recorder.record(true);
  await ours.latencies(5);
  ours.recorder.record(false);
  const requestBytes = ours.recorder.sizes.in['question/requested'];
  const replyBytes = ours.recorder.sizes.out['question/respond'];
  if (!requestBytes || !replyBytes) throw new Error(`Could not see our frames on the wire: ${JSON.stringify(ours.recorder.sizes)}`);
  const receiptBytes = ours.recorder.sizes.in.receipt ?? 0;
  const resolvedBytes = ours.recorder.sizes.in['question/resolved'] ?? 0;

  const bare = await startBarePair({ requestBytes, replyBytes });
  // Same four frames as our protocol (request, respond, receipt, resolved) with no work on them:
  // separates what the extra frames cost from what our code costs.
  const bareFour = await startBarePair({ requestBytes, replyBytes, afterReply: [receiptBytes, resolvedBytes] });
  try {
    const samples = await interleave(
      [
        { name: 'askseam', run: (count) => ours.latencies(count) },
        { name: 'bare', run: (count) => bare.latencies(count) },
        { name: 'bareFour', run: (count) => bareFour.latencies(count) },
      ],
      { warmup, rounds, perRound },
    );
    const p50 = quantile(samples.askseam, 0.5);
    const p99 = quantile(samples.askseam, 0.99);
    const bareP50 = quantile(samples.bare, 0.5);
    const bareP99 = quantile(samples.bare, 0.99);
    const bareFourP50 = quantile(samples.bareFour, 0.5);
    const n = samples.askseam.length;
    return [
      figure({
        section: SECTION,
        name: `round trip p50 (tool → seam → host → client → tool result; n=${n})`,
        value: p50,
        unit: 'ms',
        baseline: { name: `bare ws, ${requestBytes} B out / ${replyBytes} B back`, value: bareP50 },
        target: { on: 'ratio', op: '<=', value: 1.5, text: '<= 1.5× bare ws' },
        note: `Our round trip also carries a receipt (${receiptBytes} B) and a question/resolved frame (${resolvedBytes} B) back to the client, which the 2-frame baseline does not; the third row isolates that.`,
      }),
      figure({
        section: SECTION,
        name: `round trip p99 (n=${n})`,
        value: p99,
        unit: 'ms',
        baseline: { name: 'bare ws p99, same frames', value: bareP99 },
      }),
      figure({
        section: SECTION,
        name: 'round trip p50 vs the same 4 frames over bare ws',
        value: p50,
        unit: 'ms',
        baseline: { name: `bare ws, ${requestBytes} B out / ${replyBytes} + ${receiptBytes} + ${resolvedBytes} B back`, value: bareFourP50 },
        note: 'Informational: the ratio is what our code (JSON, zod, matchesQuestions, the seam) adds on top of the frames it sends.',
      }),
    ];
  } finally {
    await bare.close();
    await bareFour.close();
    await ours.close();
  }
}
