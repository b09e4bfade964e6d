import { createMemoryStorage } from '@evcal/memory';
import { describe, expect, it } from 'vitest';
import { createCalendar } from '../calendar/calendar';

const links = { siteUrl: 'https://new.example', apiRoot: 'https://new.example/wp-json/tribe/events/v1' };
const SOURCE = 'events.example.org?id=8';

function calendar() {
  return createCalendar({ storage: createMemoryStorage(), now: () => Date.UTC(2026, 10, 22, 12) });
}

describe('global_id_lineage through datasets', () => {
  it('lists the global id first, then the sources, each once', async () => {
    const cal = calendar();
    await cal.importDataset({
      venues: [{ id: 4, venue: 'Hall', status: 'publish', global_id_lineage: [SOURCE.replace('8', '4')] }],
      organizers: [{ id: 6, organizer: 'Ada', status: 'publish', global_id_lineage: ['new.example?id=6', 'older.example?id=1'] }],
      events: [
        { id: 8, title: 'Gig', start_date: '2026-12-01 20:00:00', end_date: '2026-12-01 23:00:00', status: 'publish', venue: [4], organizer: [6],
          global_id_lineage: [SOURCE, 'older.example?id=2', SOURCE] },
        { id: 9, title: 'Here', start_date: '2026-12-01 20:00:00', end_date: '2026-12-01 23:00:00', status: 'publish' },
      ],
    });
    const gig = (await cal.events.get({ id: 8 }, { links })).value;
    expect(gig.global_id_lineage).toEqual(['new.example?id=8', SOURCE, 'older.example?id=2']);
    expect((gig.venue as Record<string, unknown>).global_id_lineage).toEqual(['new.example?id=4', 'events.example.org?id=4']);
    expect((gig.organizer as Record<string, unknown>[])[0]!.global_id_lineage).toEqual(['new.example?id=6', 'older.example?id=1']);
    expect((await cal.events.get({ id: 9 }, { links })).value.global_id_lineage).toEqual(['new.example?id=9']);
  });

  it('survives an export and an import', async () => {
    const cal = calendar();
    await cal.importDataset({ events: [{ id: 8, title: 'Gig', start_date: '2026-12-01 20:00', end_date: '2026-12-01 23:00', global_id_lineage: [SOURCE] }] });
    const exported = await cal.exportDataset();
    expect(exported.events[0]!.global_id_lineage).toEqual([SOURCE]);
    const again = calendar();
    await again.importDataset(JSON.parse(JSON.stringify(exported)));
    expect((await again.events.get({ id: 8 }, { links })).value.global_id_lineage).toEqual(['new.example?id=8', SOURCE]);
  });

  it('refuses a lineage that is not a list of global ids', async () => {
    for (const bad of ['x', [''], [1], Array.from({ length: 101 }, (_, i) => `a?id=${i}`)]) {
      await expect(calendar().importDataset({ events: [{ id: 8, title: 'Gig', start_date: '2026-12-01', end_date: '2026-12-01', global_id_lineage: bad }] }))
        .rejects.toThrow(/events\[0\].*global_id_lineage/);
    }
  });
});
