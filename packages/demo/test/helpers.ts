import { connectPerson, type PersonClient } from '@askseam/test-support';
import { startDemo, type Demo, type StartDemoOptions } from '../src/index.js';

/** Everything a test started, closed in afterEach so the run never hangs. */
export class Cleanup {
  readonly #tasks: (() => unknown)[] = [];
  add(task: () => unknown): void {
    this.#tasks.push(task);
  }
  async run(): Promise<void> {
    for (const task of this.#tasks.splice(0).reverse()) await task();
  }
}

/** A demo on a free port whose transcript lands in `lines`. */
export async function startTestDemo(cleanup: Cleanup, options: StartDemoOptions = {}): Promise<{ demo: Demo; lines: string[] }> {
  const lines: string[] = [];
  const demo = await startDemo({ port: 0, print: (line) => lines.push(line), ...options });
  cleanup.add(() => demo.close());
  return { demo, lines };
}

/** A real client on the demo's socket, as the page would connect, handing out questions in arrival order. */
export async function connectTo(cleanup: Cleanup, demo: Demo): Promise<PersonClient> {
  const person = await connectPerson({ url: demo.socketUrl, token: demo.token, reconnect: false });
  cleanup.add(() => person.client.close());
  return person;
}

/** The text after `[tool result] <name> → ` of every result line of that tool, in order. */
export function toolResults(lines: readonly string[], name: string): string[] {
  const prefix = `[tool result] ${name} → `;
  return lines.filter((line) => line.startsWith(prefix)).map((line) => line.slice(prefix.length));
}
