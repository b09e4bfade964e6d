// In-process change events: `calendar.on('change', listener)` hears every change this
// calendar commits, after the commit, with the envelope webhooks carry. A listener that
// throws is reported (onError), never to the writer, whose change is already committed.
// The webhook sender listens apart (`onQueued`): only to the commits that queued deliveries,
// so a write with no endpoint to tell costs it nothing.
import type { ChangeEvents, ChangeListener } from '../kernel/context';
import { changeEnvelope } from './change-envelope';

export type { ChangeEvents, ChangeListener };

export function createChangeEvents(onError: (error: unknown) => void): ChangeEvents {
  const listeners = new Set<ChangeListener>();
  const queued = new Set<() => void>();
  const tell = <A extends unknown[]>(listener: (...args: A) => void, ...args: A) => {
    try {
      listener(...args);
    } catch (error) {
      onError(error);
    }
  };
  return {
    on(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    off(listener) {
      listeners.delete(listener);
    },
    onQueued(listener) {
      queued.add(listener);
      return () => queued.delete(listener);
    },
    emit(entries, deliveries) {
      if (listeners.size > 0) {
        for (const entry of entries) {
          const envelope = Object.freeze(changeEnvelope(entry));
          for (const listener of [...listeners]) tell(listener, envelope);
        }
      }
      if (deliveries > 0) for (const listener of [...queued]) tell(listener);
    },
  };
}
