import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, questionStoreMigrations, type Migration } from './migrations.js';

const open: Database.Database[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

function memoryDb(): Database.Database {
  const db = new Database(':memory:');
  open.push(db);
  return db;
}

const notes: Migration = { version: 1, description: 'notes', sql: 'CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL) STRICT;' };
const tags: Migration = { version: 2, description: 'note tags', sql: "ALTER TABLE notes ADD COLUMN tag TEXT NOT NULL DEFAULT 'none';" };

describe('migrate', () => {
  it('brings an empty database to the newest version', () => {
    const db = memoryDb();
    expect(migrate(db)).toEqual({ from: 0, to: questionStoreMigrations.length });
    expect(db.prepare('SELECT version FROM schema_version').pluck().get()).toBe(questionStoreMigrations.length);
  });

  it('runs only the missing steps on an older store and keeps its rows', () => {
    const db = memoryDb();
    migrate(db, [notes]);
    db.prepare('INSERT INTO notes (text) VALUES (?)').run('kept');
    expect(migrate(db, [notes, tags])).toEqual({ from: 1, to: 2 });
    expect(db.prepare('SELECT text, tag FROM notes').all()).toEqual([{ text: 'kept', tag: 'none' }]);
  });

  it('does nothing to a store that is up to date', () => {
    const db = memoryDb();
    migrate(db, [notes, tags]);
    expect(migrate(db, [notes, tags])).toEqual({ from: 2, to: 2 });
  });

  it('rolls a failing step back whole and leaves the version where it was', () => {
    const db = memoryDb();
    migrate(db, [notes]);
    const broken: Migration = { version: 2, description: 'broken', sql: 'CREATE TABLE half (x INTEGER); THIS IS NOT SQL;' };
    expect(() => migrate(db, [notes, broken])).toThrow();
    expect(db.prepare('SELECT version FROM schema_version').pluck().get()).toBe(1);
    expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'half'").pluck().get()).toBe(0);
  });

  it('insists on versions 1, 2, 3, … in order', () => {
    expect(() => migrate(memoryDb(), [tags])).toThrow(/versions must be 1, 2, 3/);
  });
});
