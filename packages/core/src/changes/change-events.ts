// In-process change events: `calendar.on('change', listener)` hears every change this
// calendar commits, after the commit, with the envelope webhooks carry. A listener that
// throws is reported (onError), never to the writer, whose change is already committed.
import type { ChangeEvents, ChangeListener } from '../kernel/context';
import { changeEnvelope } from './change-envelope';

export type { ChangeEvents, ChangeListener };

export function createChangeEvents(onError: (error: unknown) => void): ChangeEvents {
  const listeners = new Set<ChangeListener>();
  return {
    on(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    off(listener) {
      listeners.delete(listener);
    },
    emit(entries) {
      if (listeners.size === 0) return;
      for (const entry of entries) {
        const envelope = Object.freeze(changeEnvelope(entry));
        for (const listener of [...listeners]) {
          try {
            listener(envelope);
          } catch (error) {
            onError(error);
          }
        }
      }
    },
  };
}
