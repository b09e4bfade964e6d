import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createHorizonKeeper, monthsAhead } from './series-horizon';
import type { Call } from '../kernel/call';

const settings = (horizonMonths: number) => ({ recurrence: { horizonMonths, maxHorizonMonths: 120 } as never });
const instant = fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2100, 0, 1) });

describe('the recurrence horizon', () => {
  it('monthsAhead grows at most 5 days faster than time (month lengths, leap days), and jumps back at month ends', () => {
    fc.assert(fc.property(instant, fc.integer({ min: 0, max: 4000 * 86_400_000 }), fc.integer({ min: 1, max: 120 }), (now, later, months) => {
      expect(monthsAhead(now + later, months)).toBeLessThanOrEqual(monthsAhead(now, months) + later + 5 * 86_400_000);
    }), { numRuns: 5000 });
    // 28 February + 1 month is 28 March, a day later it is 1 April: 4 days on in one.
    expect(monthsAhead(Date.UTC(2027, 2, 1), 1) - monthsAhead(Date.UTC(2027, 1, 28), 1)).toBe(4 * 86_400_000);
    // 31 January + 1 month is 3 March, 1 February is 1 March.
    expect(monthsAhead(Date.UTC(2027, 0, 31), 1)).toBe(Date.UTC(2027, 2, 3));
    expect(monthsAhead(Date.UTC(2027, 1, 1), 1)).toBe(Date.UTC(2027, 2, 1));
  });

  it('lags exactly when the stored horizon is short of what now needs, reading the storage only then', async () => {
    await fc.assert(fc.asyncProperty(instant, fc.integer({ min: -90, max: 90 }), fc.array(fc.integer({ min: 0, max: 200 * 86_400_000 }), { maxLength: 20 }), async (start, offsetDays, steps) => {
      const months = 12;
      const stored = monthsAhead(start, months) + offsetDays * 86_400_000;
      let reads = 0;
      const call = (now: number) => ({ now, storage: { sequences: { peek: async () => (reads++, stored) } } }) as unknown as Call;
      const keeper = createHorizonKeeper(settings(months));
      let now = start;
      await keeper.roll(call(now)).catch(() => undefined); // learns the stored horizon (extending it fails here: no storage to write)
      for (const step of steps) {
        now += step;
        const before = reads;
        const lags = keeper.lags(now);
        if (!lags) {
          // Said not to lag: truly so, and known without a read.
          expect(monthsAhead(now, months)).toBeLessThanOrEqual(stored);
          expect(reads).toBe(before);
        }
        if (monthsAhead(now, months) > stored) expect(lags).toBe(true);
      }
    }), { numRuns: 300 });
  });

  it('never lags with the horizon off', () => {
    expect(createHorizonKeeper(settings(0)).lags(Date.UTC(2030, 0, 1))).toBe(false);
  });
});
