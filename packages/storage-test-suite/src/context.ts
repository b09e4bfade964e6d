// What every group of the suite works with: a way to get a fresh storage per test.
import type { Storage } from '@evcal/core/adapter';
import { onTestFinished } from 'vitest';

export interface StorageSuiteOptions {
  /** Shown in the suite's title, e.g. "memory" or "sqlite". */
  readonly name: string;
  /** A new, empty storage. Called once per test. */
  create(): Storage | Promise<Storage>;
  /**
   * Closes `storage` and opens the same data again. Give it for durable adapters: the suite
   * then checks that everything written survives a reopen.
   */
  reopen?(storage: Storage): Storage | Promise<Storage>;
  /** Runs of the differential property test (random datasets and queries). @default 60 */
  readonly propertyRuns?: number;
}

export interface SuiteContext {
  readonly options: StorageSuiteOptions;
  /** A fresh storage, closed when the test finishes. */
  fresh(): Promise<Storage>;
  /** Reopens `storage` (closed afterwards too); only when the adapter is durable. */
  reopen(storage: Storage): Promise<Storage>;
}

export function suiteContext(options: StorageSuiteOptions): SuiteContext {
  const track = (s: Storage) => {
    onTestFinished(async () => {
      await s.close();
    });
    return s;
  };
  return {
    options,
    fresh: async () => track(await options.create()),
    reopen: async (s) => {
      if (!options.reopen) throw new Error('reopen() not supported by this adapter');
      return track(await options.reopen(s));
    },
  };
}
