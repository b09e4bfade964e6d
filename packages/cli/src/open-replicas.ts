// The read replicas of `evcal serve --read-replica` (docs/operations.md, "Read replicas"):
// opened and read once before the server listens, so that its first reads may go to them, and
// their coming and going logged. Which replica a request reads from is read-routing.ts's.
import type { Storage } from '@evcal/core';
import { errorFields, type Logger } from './logger';
import { replicaSet, type ReplicaSet } from './replica-set';
import { openReplica, redact, schemaOf } from './storage-url';

/** The read replicas, opened and read once before the server listens; their coming and going logged. */
export async function openReplicas(storageUrl: string, urls: readonly string[], primary: Storage, maxLagMs: number, logger: Logger): Promise<ReplicaSet> {
  const schema = schemaOf(storageUrl);
  const opened = await Promise.all(urls.map(async (url) => ({
    name: redact(url),
    storage: await openReplica(url, schema, { onConnectionError: (error) => logger.warn('read replica connection lost', { replica: redact(url), ...errorFields(error) }) }),
  })));
  const set = replicaSet({
    primary,
    replicas: opened,
    maxLagMs,
    onChange: (state, detail) => {
      if (state.up && state.lagMs <= maxLagMs) logger.info('read replica in use', { replica: state.name, lag_ms: state.lagMs });
      else logger.warn('read replica skipped: reads go to the primary', { replica: state.name, up: state.up, lag_ms: Number.isFinite(state.lagMs) ? state.lagMs : null, ...(detail ? { detail } : {}) });
    },
  });
  await set.poll();
  return set;
}
