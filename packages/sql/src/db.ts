// What the storage's parts share: the database they run statements on (the storage's own, or
// a write transaction's), how they run a write, and how they wait for counts to be summed. The
// collections import these, and sql-storage.ts imports the collections: kept here so neither
// imports the other.
import type { Kysely, Transaction } from 'kysely';
import type { EvcalDatabase } from './schema';

/** The database a statement runs on: the storage's, or a write transaction's. */
export type Db = Kysely<EvcalDatabase> | Transaction<EvcalDatabase>;

/**
 * Runs statements that write; `events`: they insert, or replace or delete, one event; `rows`:
 * the events they change when that may be many (a status change of a batch), for FOLD_AFTER.
 */
export type Write = <T>(fn: (db: Db) => Promise<T>, events?: 'inserted' | 'changed', rows?: number) => Promise<T>;

/** Called before reading term or day counts: a promise to wait for when they must be summed first. */
export type CountsRead = () => Promise<void> | undefined;
