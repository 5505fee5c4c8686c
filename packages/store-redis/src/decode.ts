import { QuestionStoreError, newQuestionEventSchema, questionRecordSchema, type QuestionEvent, type QuestionRecord } from '@askseam/store';

/**
 * A record hash as a record, checked with the same schema every store uses: a hash damaged by
 * hand (or by another program under our prefix) is reported as `CORRUPT_STORE`, never passed on.
 */
export function recordOf(rpcId: string, hash: Record<string, string>, target: string): QuestionRecord {
  const parsed = questionRecordSchema.safeParse(
    readJson(() => ({
      ...(JSON.parse(hash['record'] ?? 'null') as object),
      ...(hash['outcome'] === undefined ? {} : { outcome: hash['outcome'] }),
      ...(hash['answer'] === undefined ? {} : { answer: JSON.parse(hash['answer']) }),
      ...(hash['settledAt'] === undefined ? {} : { settledAt: hash['settledAt'] }),
      ...(hash['resumedAt'] === undefined ? {} : { resumedAt: hash['resumedAt'] }),
      ...(hash['answeredBy'] === undefined ? {} : { answeredBy: JSON.parse(hash['answeredBy']) }),
    })),
  );
  if (!parsed.success) throw corrupt(`question "${rpcId}"`, target, parsed.error);
  if (parsed.data.rpcId !== rpcId || parsed.data.sessionId !== hash['session']) {
    throw corrupt(`question "${rpcId}"`, target, new Error(`the stored record names rpcId "${parsed.data.rpcId}" in session "${parsed.data.sessionId}"`));
  }
  return parsed.data;
}

/** A flat `[field, value, field, value, …]` reply (HGETALL from a script, a stream entry) as an object. */
export function fieldsOf(flat: unknown): Record<string, string> {
  const fields: Record<string, string> = {};
  if (!Array.isArray(flat)) return fields;
  for (let i = 0; i + 1 < flat.length; i += 2) fields[String(flat[i])] = String(flat[i + 1]);
  return fields;
}

/** One stream entry (`[id, [field, value, …]]`) of a session's log as an event, checked. */
export function eventOf(sessionId: string, entry: [id: string, fields: string[]], target: string): QuestionEvent {
  const [entryId, flat] = entry;
  const id = Number(entryId.split('-')[0]);
  const fields = fieldsOf(flat);
  const parsed = newQuestionEventSchema.safeParse(readJson(() => JSON.parse(fields['event'] ?? 'null')));
  const at = fields['at'];
  if (!parsed.success || parsed.data.sessionId !== sessionId || at === undefined || !Number.isSafeInteger(id)) {
    throw corrupt(`event ${entryId} of session "${sessionId}"`, target, parsed.error ?? new Error('the entry lacks its session, time or id'));
  }
  return { ...parsed.data, id, at } as QuestionEvent;
}

/** Unparseable JSON becomes a value the schema refuses, so it is reported like any other damage. */
function readJson(build: () => unknown): unknown {
  try {
    return build();
  } catch {
    return undefined;
  }
}

export function corrupt(what: string, target: string, cause: unknown): QuestionStoreError {
  return new QuestionStoreError('CORRUPT_STORE', `The ${what} in Redis at ${target} does not hold a valid value; it was left as it is. Delete or repair that key.`, { cause });
}
