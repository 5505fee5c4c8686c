import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { QuestionStoreError } from '@askseam/store';
import { APPLICATION_ID } from './migrations.js';

// Whether a file may be opened as a store is decided from its bytes, read with plain file reads,
// before SQLite opens it at all. SQLite cannot be trusted to leave a file alone even read-only: a
// read-only connection rebuilds the -shm index of a WAL database whose writer crashed, and leaves
// -wal and -shm files behind beside one that was closed cleanly; a read-write connection folds the
// -wal into the file and deletes both when it closes. The refusals here never let that happen.
// (File format: https://www.sqlite.org/fileformat2.html, "The Database Header".)

/** What a file's bytes say it is. Anything else is refused with a `QuestionStoreError`. */
export type StoreFileKind = 'absent' | 'empty-database' | 'askseam-store';

const sqliteMagic = Buffer.from('SQLite format 3\0', 'latin1');
/** The 100-byte database header, then the first 8 bytes of page 1: the b-tree header of the schema table. */
const headLength = 108;
const leafTablePage = 0x0d;
const interiorTablePage = 0x05;
/** A -wal file longer than its 32-byte header holds frames: changes SQLite has not yet folded into the file. */
const walHeaderLength = 32;

/**
 * What `filename` is, judged from its bytes without opening it in SQLite: not there (or empty), an
 * empty SQLite database, or an askseam store (by `PRAGMA application_id`; its schema is checked once
 * open). Throws `CORRUPT_STORE` for a file that is not a SQLite database and `NOT_A_STORE` for
 * another application's database, leaving the file and its -wal and -shm exactly as they were.
 */
export function inspectStoreFile(filename: string, label: string): StoreFileKind {
  if (filename === '' || filename === ':memory:') return 'absent';
  const head = readHead(filename);
  if (head === undefined || head.length === 0) return 'absent';
  if (head.length < headLength || !head.subarray(0, sqliteMagic.length).equals(sqliteMagic)) {
    throw new QuestionStoreError('CORRUPT_STORE', `${label} is not a SQLite database (its header is not SQLite's); it was left untouched. Point the store at a new file.`);
  }
  const applicationId = head.readUInt32BE(68);
  if (applicationId === APPLICATION_ID) return 'askseam-store';
  if (applicationId !== 0) {
    throw new QuestionStoreError(
      'NOT_A_STORE',
      `${label} is not an askseam question store (it carries another application's id, 0x${applicationId.toString(16)}); it was left untouched. Point the store at a new file.`,
    );
  }
  const schemaPageType = head[100];
  if (schemaPageType !== leafTablePage && schemaPageType !== interiorTablePage) {
    throw new QuestionStoreError('CORRUPT_STORE', `${label} has a damaged first page (its schema table cannot be read); it was left untouched. Restore it from a backup.`);
  }
  // A schema table of one leaf page with no cells: no tables, indexes, views or triggers.
  if (schemaPageType !== leafTablePage || head.readUInt16BE(103) !== 0) {
    throw new QuestionStoreError('NOT_A_STORE', `${label} is not an askseam question store (it already holds another application's tables); it was left untouched. Point the store at a new file.`);
  }
  // An askseam store writes its id into the file itself before it ever uses a -wal, so an empty
  // file whose -wal holds changes is someone else's database in the making (or after a crash).
  if (fileSize(`${filename}-wal`) > walHeaderLength) {
    throw new QuestionStoreError(
      'NOT_A_STORE',
      `${label} is not an askseam question store (its -wal file holds changes another program has not yet written into it); it was left untouched. Point the store at a new file.`,
    );
  }
  return 'empty-database';
}

/** The first bytes of the file, or undefined when there is no such file. */
function readHead(filename: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(filename, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const head = Buffer.alloc(headLength);
    const read = readSync(fd, head, 0, headLength, 0);
    return head.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

function fileSize(filename: string): number {
  try {
    return statSync(filename).size;
  } catch {
    return 0;
  }
}
