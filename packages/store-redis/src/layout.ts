import { QuestionStoreError } from '@askseam/store';
import type { StoreClient } from './connection.js';
import type { RedisStoreKeys } from './keys.js';

/** The layout this version writes: sessions in 1024 hash-tagged buckets (keys.ts). */
export const layoutVersion = 2;

/**
 * Make sure the prefix holds this layout, or nothing yet (then claim it). A prefix with keys of
 * the layout before buckets (one `<p>pending` index, one `<p>seq` counter…) is refused
 * `NOT_A_STORE`: this version cannot read those records, and writing beside them would leave them
 * pending forever without a word. A higher version is refused `NEWER_SCHEMA`. Nothing is changed
 * in either case. One key per command: on a Cluster the keys lie in different slots.
 */
export async function checkLayout(client: StoreClient, keys: RedisStoreKeys, target: string): Promise<void> {
  const found = await client.get(keys.layout);
  if (found === null) {
    const old = await Promise.all(keys.oldLayout.map((key) => client.exists(key)));
    const present = keys.oldLayout.filter((_, i) => old[i] === 1);
    if (present.length > 0) {
      throw new QuestionStoreError(
        'NOT_A_STORE',
        `Redis at ${target} holds questions under this prefix in the layout of an earlier @askseam/store-redis (${present.join(', ')}), which this version (layout ${layoutVersion}, sessions in hash-tagged buckets so that it runs on Redis Cluster) cannot read; nothing was changed. Let the earlier version settle and resume what is pending, then delete the keys under the prefix, or give this version a new keyPrefix.`,
      );
    }
    // Whoever comes first writes it; a store of the same version racing us writes the same.
    await client.set(keys.layout, String(layoutVersion), 'NX');
    return;
  }
  if (found === String(layoutVersion)) return;
  const version = Number(found);
  if (Number.isInteger(version) && version > layoutVersion) {
    throw new QuestionStoreError('NEWER_SCHEMA', `Redis at ${target} holds a store of layout ${version} under this prefix, written by a newer @askseam/store-redis than this one (layout ${layoutVersion}); nothing was changed. Upgrade this package.`);
  }
  throw new QuestionStoreError('NOT_A_STORE', `Redis at ${target} holds ${JSON.stringify(found.slice(0, 40))} in ${keys.layout}, not a layout version this store knows; nothing was changed. Use another keyPrefix or delete that key.`);
}
