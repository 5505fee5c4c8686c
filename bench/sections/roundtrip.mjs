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
  // The same round trip with a raw `ws` socket answering instead of the Node client: the
  // difference between the two rows is the client's share (its checks, its frame handling).
  const raw = await startAskseam({ answerer: 'raw' });

  // Learn the exact frame sizes our protocol puts on the wire for this question.
  ours.recorder.record(true);
  await ours.latencies(5);
  ours.recorder.record(false);
  const requestBytes = ours.recorder.sizes.in['question/requested'];
  const replyBytes = ours.recorder.sizes.out['question/respond'];
  if (!requestBytes || !replyBytes) throw new Error(`Could not see our frames on the wire: ${JSON.stringify(ours.recorder.sizes)}`);
  // What else the answering connection is sent per answer (protocol 2: the receipt alone).
  const followUps = ['receipt', 'question/resolved'].filter((type) => ours.recorder.sizes.in[type]).map((type) => ({ type, bytes: ours.recorder.sizes.in[type] }));
  const frames = 2 + followUps.length;

  const bare = await startBarePair({ requestBytes, replyBytes });
  // The same frames as our protocol (request, respond, and what follows the respond) with no work
  // on them: separates what the extra frames cost from what our code costs.
  const bareSame = await startBarePair({ requestBytes, replyBytes, afterReply: followUps.map((f) => f.bytes) });
  try {
    const samples = await interleave(
      [
        { name: 'askseam', run: (count) => ours.latencies(count) },
        { name: 'raw', run: (count) => raw.latencies(count) },
        { name: 'bare', run: (count) => bare.latencies(count) },
        { name: 'bareSame', run: (count) => bareSame.latencies(count) },
      ],
      { warmup, rounds, perRound },
    );
    const p50 = quantile(samples.askseam, 0.5);
    const p99 = quantile(samples.askseam, 0.99);
    const bareP50 = quantile(samples.bare, 0.5);
    const bareP99 = quantile(samples.bare, 0.99);
    const n = samples.askseam.length;
    const followUpText = followUps.map((f) => `${f.type} (${f.bytes} B)`).join(' and ');
    return [
      figure({
        section: SECTION,
        name: `round trip p50 (tool → seam → host → client → tool result; n=${n})`,
        value: p50,
        unit: 'ms',
        baseline: { name: `bare ws, ${requestBytes} B out / ${replyBytes} B back`, value: bareP50 },
        target: { on: 'ratio', op: '<=', value: 2, text: '<= 2.0× bare ws' },
        note: `Our round trip also sends the answering connection a ${followUpText}, which the 2-frame baseline does not; the ${frames}-frame row isolates that. Every answer is checked by the client and by the host.`,
      }),
      figure({
        section: SECTION,
        name: `round trip p99 (n=${n})`,
        value: p99,
        unit: 'ms',
        baseline: { name: 'bare ws p99, same frames', value: bareP99 },
        target: { on: 'ratio', op: '<=', value: 4, text: '<= 4× bare ws p99' },
      }),
      figure({
        section: SECTION,
        name: `round trip p50, a raw ws client answering (tool → seam → host → raw socket → tool result; n=${samples.raw.length})`,
        value: quantile(samples.raw, 0.5),
        unit: 'ms',
        baseline: { name: `bare ws, ${requestBytes} B out / ${replyBytes} B back`, value: bareP50 },
        note: 'Informational: the raw socket answers with JSON.parse and a fixed frame, no checks; the host still checks every answer. The gap to the first row is the Node client.',
      }),
      figure({
        section: SECTION,
        name: `round trip p50 vs the same ${frames} frames over bare ws`,
        value: p50,
        unit: 'ms',
        baseline: { name: `bare ws, ${requestBytes} B out / ${[replyBytes, ...followUps.map((f) => f.bytes)].join(' + ')} B back`, value: quantile(samples.bareSame, 0.5) },
        note: 'Informational: the ratio is what our code (JSON, zod, matchesQuestions, the seam) adds on top of the frames it sends.',
      }),
    ];
  } finally {
    await bare.close();
    await bareSame.close();
    await raw.close();
    await ours.close();
  }
}
