// registerStorageSuite: the whole suite for one adapter, as vitest tests.
import { describe } from 'vitest';
import { accountsGroup } from './accounts-group';
import { changeLogGroup } from './change-log-group';
import { changesGroup } from './changes-group';
import { suiteContext, type StorageSuiteOptions } from './context';
import { differentialGroup } from './differential-group';
import { idempotencyGroup } from './idempotency-group';
import { queriesGroup } from './queries-group';
import { recordsGroup } from './records-group';
import { webhookStatusGroup } from './webhook-status-group';

/**
 * Registers every test of the storage contract for an adapter. Call it at the top level of a
 * test file; `create` must return a fresh, empty storage each time.
 *
 *     registerStorageSuite({ name: 'memory', create: () => createMemoryStorage() });
 */
export function registerStorageSuite(options: StorageSuiteOptions): void {
  describe(`storage contract: ${options.name}`, () => {
    const ctx = suiteContext(options);
    recordsGroup(ctx);
    changesGroup(ctx);
    changeLogGroup(ctx);
    webhookStatusGroup(ctx);
    queriesGroup(ctx);
    differentialGroup(ctx);
    accountsGroup(ctx);
    idempotencyGroup(ctx);
  });
}
