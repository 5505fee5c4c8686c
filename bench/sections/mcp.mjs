// Section 2: the same job done by the official MCP TypeScript SDK (elicitation over Streamable
// HTTP), beside ours, in the same process and run, alternating A/B after a warm-up.
import { startAskseam, throughput } from '../lib/askseam.mjs';
import { figure } from '../lib/figure.mjs';
import { startMcp } from '../lib/mcp.mjs';
import { interleave, median, quantile } from '../lib/stats.mjs';

const SECTION = 'mcp';

export async function run(config) {
  const { warmup, rounds, perRound, concurrency, throughputMs, throughputRounds } = config.mcp;
  const ours = await startAskseam();
  const peer = await startMcp();
  try {
    const samples = await interleave(
      [
        { name: 'askseam', run: (count) => ours.latencies(count) },
        { name: 'mcpTool', run: (count) => peer.latencies(count) },
        { name: 'mcpElicit', run: (count) => peer.elicitLatencies(count) },
      ],
      { warmup, rounds, perRound },
    );

    const rates = { askseam: [], mcp: [] };
    for (let round = 0; round < throughputRounds; round++) {
      const order = round % 2 === 0 ? ['askseam', 'mcp'] : ['mcp', 'askseam'];
      for (const name of order) {
        const roundTrip = name === 'askseam' ? ours.roundTrip : peer.roundTrip;
        rates[name].push(await throughput(roundTrip, { ms: throughputMs, concurrency }));
      }
    }

    const n = samples.askseam.length;
    const oursP50 = quantile(samples.askseam, 0.5);
    return [
      figure({
        section: SECTION,
        name: `round trip p50, ours vs MCP tool call that elicits (n=${n})`,
        value: oursP50,
        unit: 'ms',
        baseline: { name: 'MCP SDK: callTool → elicitInput → handler → result, Streamable HTTP', value: quantile(samples.mcpTool, 0.5) },
        target: { on: 'ratio', op: '<=', value: 1, text: '< 1× (faster than MCP)' },
      }),
      figure({
        section: SECTION,
        name: `round trip p99, ours vs MCP tool call (n=${n})`,
        value: quantile(samples.askseam, 0.99),
        unit: 'ms',
        baseline: { name: 'MCP SDK tool call p99', value: quantile(samples.mcpTool, 0.99) },
      }),
      figure({
        section: SECTION,
        name: `round trip p50, ours vs MCP elicitInput alone (n=${n})`,
        value: oursP50,
        unit: 'ms',
        baseline: { name: 'MCP SDK: server elicitInput on the session GET stream, no tool call', value: quantile(samples.mcpElicit, 0.5) },
        note: 'Informational: the closest transport-for-transport match (MCP without the tools/call request around it).',
      }),
      figure({
        section: SECTION,
        name: `throughput, ${concurrency} round trips in flight`,
        value: median(rates.askseam),
        unit: 'round trips/s',
        baseline: { name: `MCP SDK tool call that elicits, ${concurrency} in flight`, value: median(rates.mcp) },
        target: { on: 'ratio', op: '>=', value: 1, text: '> 1× (faster than MCP)' },
      }),
    ];
  } finally {
    await peer.close();
    await ours.close();
  }
}
