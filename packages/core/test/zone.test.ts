// Zone offsets and the DST rule (src/time/zone.ts). The offsets come from ICU through Intl;
// these pin down the cases a conversion is easiest to get wrong: offsets that are not whole
// hours, negative offsets under one hour (local mean time, whose seconds are dropped toward
// zero), both sides of DST in each hemisphere, and the gap and overlap of a transition.
import { describe, expect, it } from 'vitest';
import { formatUtc, instantToWall, parseWall, resolveZone, wallToInstant, zoneAbbreviation } from '../src';

const at = (iso: string) => Date.parse(iso);
const zone = (name: string) => {
  const z = resolveZone(name);
  if (!z) throw new Error(`zone ${name} not resolved`);
  return z;
};

describe('zone offsets', () => {
  it.each([
    ['America/New_York', '2026-01-15T12:00:00Z', -300],
    ['America/New_York', '2026-07-15T12:00:00Z', -240],
    ['Asia/Kathmandu', '2026-01-15T12:00:00Z', 345],
    ['Asia/Kolkata', '2026-07-15T12:00:00Z', 330],
    ['America/St_Johns', '2026-01-15T12:00:00Z', -210],
    ['America/St_Johns', '2026-07-15T12:00:00Z', -150],
    ['Pacific/Chatham', '2026-01-15T12:00:00Z', 825],
    ['Pacific/Chatham', '2026-07-15T12:00:00Z', 765],
    ['Australia/Lord_Howe', '2026-01-15T12:00:00Z', 660],
    ['Australia/Lord_Howe', '2026-07-15T12:00:00Z', 630],
    // Monrovia kept -0:44:30 until 1972; Dublin Mean Time was -0:25:21.
    ['Africa/Monrovia', '1971-06-01T12:00:00Z', -44],
    ['Africa/Monrovia', '1973-06-01T12:00:00Z', 0],
    ['Europe/Dublin', '1900-06-01T12:00:00Z', -25],
    ['UTC', '2026-07-15T12:00:00Z', 0],
    ['EST', '2026-07-15T12:00:00Z', -300],
  ])('%s at %s is %i minutes east', (name, iso, minutes) => {
    expect(zone(name).offsetAt(at(iso))).toBe(minutes);
  });

  it('fixed offsets keep their minutes', () => {
    expect(zone('+05:45').offsetAt(0)).toBe(345);
    expect(zone('UTC-5.5').offsetAt(0)).toBe(-330);
    expect(resolveZone('Mars/Olympus_Mons')).toBeUndefined();
  });

  it('abbreviations fall back to the offset where a zone has no common one', () => {
    expect(zoneAbbreviation(zone('Asia/Kathmandu'), at('2026-01-15T12:00:00Z'))).toBe('+0545');
    expect(zoneAbbreviation(zone('America/New_York'), at('2026-07-15T12:00:00Z'))).toBe('EDT');
  });
});

describe('the DST rule', () => {
  const ny = () => zone('America/New_York');
  const wall = (s: string) => parseWall(s)!;

  it('moves a time in the spring-forward gap forward by the gap', () => {
    expect(formatUtc(wallToInstant(wall('2026-03-08 02:30:00'), ny()))).toBe('2026-03-08 07:30:00');
  });

  it('takes the earlier instant of a time in the fall-back overlap', () => {
    expect(formatUtc(wallToInstant(wall('2026-11-01 01:30:00'), ny()))).toBe('2026-11-01 05:30:00');
  });

  it('round-trips an ordinary wall clock', () => {
    const instant = wallToInstant(wall('2026-07-04 09:15:00'), ny());
    expect(formatUtc(instant)).toBe('2026-07-04 13:15:00');
    expect(instantToWall(instant, ny())).toEqual(wall('2026-07-04 09:15:00'));
  });
});
