// `pnpm demo` (`pnpm demo --transport sse`): read the environment and the flag, start the demo, and stay up until Ctrl+C (or, with
// ASKSEAM_DEMO_EXIT_WHEN_DONE=1, until the agent is done).
import { demoConfigFromEnv, type DemoConfig } from './config.js';
import { startDemo } from './demo.js';
import { DemoError } from './errors.js';

async function main(): Promise<void> {
  let config: DemoConfig;
  try {
    config = demoConfigFromEnv(process.env, process.argv.slice(2));
  } catch (error) {
    if (!DemoError.isInstance(error)) throw error;
    console.error(`askseam demo: ${error.message}`);
    process.exitCode = 1;
    return;
  }

  const demo = await startDemo({ port: config.port, lang: config.lang, agent: config.agent, dataDir: config.dataDir, transport: config.transport, ...(config.storeUrl === undefined ? {} : { storeUrl: config.storeUrl }) });

  let exiting = false;
  const exit = async (code: number) => {
    if (exiting) return;
    exiting = true;
    await demo.close();
    process.exit(code);
  };
  process.once('SIGINT', () => void exit(0));
  process.once('SIGTERM', () => void exit(0));

  const outcome = await demo.done;
  if (outcome.status === 'aborted') return;
  // A demo whose agent broke has nothing left to show: say so and leave with an error status.
  if (outcome.status === 'failed') await exit(1);
  else if (config.exitWhenDone) await exit(0);
  else console.log('The agent is done. The page stays up; press Ctrl+C to exit.');
}

main().catch((error: unknown) => {
  console.error('askseam demo failed to start:', error);
  process.exit(1);
});
