// A webhook receiver as an app would run one: a real HTTP server that verifies every delivery
// with the standardwebhooks package and records what it accepted. It can be taken down and
// brought back on the same port, told to hold requests without answering, or to answer 503.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { onTestFinished } from 'vitest';

export const RECEIVER_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

export interface Delivery {
  /** `webhook-id`. */
  readonly id: string;
  readonly type: string;
  readonly recordId: number;
  readonly revision: number;
  /** A series' change: what it did to its occurrences. */
  readonly occurrences?: { created: number[]; updated: number[]; trashed: number[]; deleted: number[] };
  /** An occurrence changed on its own: its series. */
  readonly series?: number;
}

export interface Receiver {
  readonly url: string;
  /** Verified deliveries, in the order they arrived (a redelivery appears again). */
  readonly deliveries: Delivery[];
  /** Requests whose signature did not verify. */
  readonly rejected: string[];
  /** `answer`: 204 at once; `hold`: keep the request open, never answer; `fail`: 503 (what arrived is recorded all the same). */
  mode: 'answer' | 'hold' | 'fail';
  /** Stops listening (connections dropped): the receiver is down. */
  down(): Promise<void>;
  /** Listens again on the same port. */
  up(): Promise<void>;
}

/** A receiver on 127.0.0.1 (a free port unless given); closed when the test ends. */
export async function webhookReceiver(options: { secret?: string; startDown?: boolean } = {}): Promise<Receiver> {
  const verifier = new Webhook(options.secret ?? RECEIVER_SECRET);
  const held: ServerResponse[] = [];
  let server: Server | undefined;
  let port = 0;
  const receiver: Receiver = {
    url: '',
    deliveries: [],
    rejected: [],
    mode: 'answer',
    down: async () => {
      const s = server;
      server = undefined;
      if (!s) return;
      for (const res of held.splice(0)) res.destroy();
      s.closeAllConnections();
      await new Promise<void>((resolve) => s.close(() => resolve()));
    },
    up: async () => {
      const s = createServer((req, res) => {
        let body = '';
        req.setEncoding('utf8').on('data', (c: string) => { body += c; }).on('end', () => {
          let payload: { type: string; id: number; revision: number; occurrences?: Delivery['occurrences']; series?: number };
          try {
            payload = verifier.verify(body, req.headers as Record<string, string>) as typeof payload;
          } catch (error) {
            receiver.rejected.push(String(error));
            res.writeHead(400).end();
            return;
          }
          receiver.deliveries.push({
            id: String(req.headers['webhook-id']), type: payload.type, recordId: payload.id, revision: payload.revision,
            ...(payload.occurrences ? { occurrences: payload.occurrences } : {}), ...(payload.series !== undefined ? { series: payload.series } : {}),
          });
          if (receiver.mode === 'hold') held.push(res);
          else res.writeHead(receiver.mode === 'fail' ? 503 : 204).end();
        });
      });
      await new Promise<void>((resolve) => s.listen(port, '127.0.0.1', resolve));
      port = (s.address() as AddressInfo).port;
      server = s;
    },
  };
  await receiver.up();
  (receiver as { url: string }).url = `http://127.0.0.1:${port}/evcal-hook`;
  if (options.startDown) await receiver.down();
  onTestFinished(() => receiver.down());
  return receiver;
}

/**
 * The deliveries without repeats (the first of each webhook-id), as a receiver that
 * deduplicates sees them: deliveries are at least once, and an answer that reaches a busy
 * server after its time-out is followed by the same message again.
 */
export function unique(deliveries: readonly Delivery[]): Delivery[] {
  const seen = new Set<string>();
  return deliveries.filter((d) => !seen.has(d.id) && seen.add(d.id));
}

/** Waits until `check` holds (it is asked every 50 ms), or fails after `ms`. */
export async function eventually(check: () => boolean, ms = 20_000, what = 'the condition'): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
