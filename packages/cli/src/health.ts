// GET /healthz and GET /readyz, outside the API's addresses, for supervisors and load
// balancers: healthz answers 200 while the process serves at all; readyz 200 only when the
// storage answers within a few seconds at the schema this version writes, 503 otherwise (and
// while the server is shutting down, so a balancer stops sending it requests). A storage that
// reads but refuses writes (a full disk) is ready, with `writable: false`: its reads go on.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Storage, StorageReadiness } from '@evcal/core';
import { requestIdHeader } from './access-log';
import type { Logger } from './logger';
import type { ReplicaState } from './replica-set';

export interface HealthOptions {
  readonly storage: Storage;
  readonly logger: Logger;
  /** Whether the server is shutting down. */
  readonly stopping: () => boolean;
  /** How long the storage may take to answer. @default 3000 */
  readonly timeoutMs?: number;
  /** The read replicas' states, shown by /readyz. @default none */
  readonly replicas?: () => readonly ReplicaState[];
}

/** Answers the health routes; false for any other request (left to the API). */
export function healthRoutes(options: HealthOptions): (req: IncomingMessage, res: ServerResponse) => boolean {
  const timeoutMs = options.timeoutMs ?? 3_000;
  let lastReason: string | undefined;
  return (req, res) => {
    const url = req.url ?? '/';
    // Every request passes here: most are turned away without splitting their address.
    if (!url.startsWith('/healthz') && !url.startsWith('/readyz')) return false;
    const path = url.split('?')[0];
    if (path !== '/healthz' && path !== '/readyz') return false;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      send(res, req, 405, { status: 'method_not_allowed' }, { allow: 'GET, HEAD' });
      return true;
    }
    if (path === '/healthz') {
      send(res, req, 200, { status: 'ok' });
      return true;
    }
    if (options.stopping()) {
      send(res, req, 503, { status: 'stopping' });
      return true;
    }
    void readiness(options.storage, timeoutMs).then((r) => {
      // Logged when the answer changes, not on every probe.
      const reason = 'reason' in r ? `${r.ready}: ${r.reason}: ${r.detail}` : undefined;
      if (reason !== lastReason) {
        if (!r.ready) options.logger.warn('storage not ready', { reason: r.reason, detail: r.detail });
        else if (r.writable === false) options.logger.error('storage not writable: reads are served, writes refused', { reason: r.reason, detail: r.detail });
        else options.logger.info('storage ready');
        lastReason = reason;
      }
      // Ready but not writable stays 200, so that a balancer keeps sending it the reads it serves.
      const replicas = options.replicas && {
        replicas: options.replicas().map((s) => ({ replica: s.name, up: s.up, lag_ms: Number.isFinite(s.lagMs) ? s.lagMs : null, position: s.position })),
      };
      if (!r.ready) send(res, req, 503, { status: 'unavailable', reason: r.reason, ...replicas });
      else if (r.writable === false) send(res, req, 200, { status: 'ready', writable: false, reason: r.reason, ...replicas });
      else send(res, req, 200, { status: 'ready', writable: true, ...replicas });
    });
    return true;
  };
}

async function readiness(storage: Storage, timeoutMs: number): Promise<StorageReadiness> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<StorageReadiness>((resolve) => {
    timer = setTimeout(() => resolve({ ready: false, reason: 'unreachable', detail: `no answer within ${timeoutMs} ms` }), timeoutMs);
  });
  try {
    return await Promise.race([storage.readiness(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function send(res: ServerResponse, req: IncomingMessage, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=UTF-8',
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(text),
    ...requestIdHeader(req),
    ...headers,
  });
  res.end(req.method === 'HEAD' ? undefined : text);
}
