// Runs one section in its own process (fresh heap, own file descriptors, --expose-gc) and
// hands its figures back to run.mjs over the IPC channel.
import { config } from './config.mjs';

const name = process.argv[2];
let message;
try {
  const section = await import(`../sections/${name}.mjs`);
  message = { ok: true, figures: await section.run(config) };
} catch (error) {
  message = { ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
}
// Exit once the message is out: a socket a section left open must not hold the run hostage.
process.send(message, () => process.exit(0));
