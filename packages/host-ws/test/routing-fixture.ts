import type { IncomingMessage } from 'node:http';
import type { Principal } from '../src/index.js';
import type { TestHost } from './fixture.js';
import type { RawClient } from './raw-client.js';

/** The people of the routing tests, with the groups `authenticate` lists for each. */
export const people: Record<string, string[]> = {
  alice: ['oncall'],
  bob: [],
  carol: ['leads'],
  dave: ['oncall'],
};

/** `?as=<name>` authenticates one of `people` (a stand-in for the app's own login); they see every session. */
export function authenticatePeople(req: IncomingMessage): Principal | undefined {
  const name = new URL(req.url ?? '/', 'http://x').searchParams.get('as');
  const groups = name === null ? undefined : people[name];
  if (name === null || groups === undefined) return undefined;
  return { id: name, canSee: () => true, groups };
}

/** A person's own authenticated socket, greeted. */
export async function connectAs(test: TestHost, name: string): Promise<RawClient> {
  const client = await test.connect({ query: `as=${name}` });
  await client.next('hello');
  return client;
}
