"""Reads iCalendar files with the Python parsers of the matrix and prints, for each file and
parser, the occurrences it expands in a window as JSON: {FILE: {"icalendar": [[start, summary],
...], ...}}, a start being "YYYY-MM-DDTHH:MM:SSZ" (a timed event's instant) or "YYYY-MM-DD" (an
all-day event's date). A parser that throws on a file gives {"error": message} instead.

- icalendar: parses the feed; it expands nothing itself, so each VEVENT's RRULE is expanded by
  dateutil as RFC 5545 says (on DTSTART's wall clock, each wall clock then placed in DTSTART's
  zone by icalendar's own time zone), less EXDATEs, plus RDATEs, overrides (RECURRENCE-ID)
  replacing the instance they name.
- recurring-ical-events: its between(), on the calendar icalendar parsed.
- vobject: each VEVENT's getrruleset(), overrides replacing the instance they name.

Usage: /usr/bin/python3 read-py.py FROM TO FILE... (FROM and TO instants "YYYY-MM-DDTHH:MM:SSZ").
"""
import datetime as dt
import json
import re
import sys

UTC = dt.timezone.utc


def stamp(value):
    """The matrix's text of a start: an instant in UTC, or a date."""
    if isinstance(value, dt.datetime):
        if value.tzinfo is None:
            raise ValueError(f"floating time {value}")
        return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return value.isoformat()


def in_window(start, lo, hi):
    return lo.date().isoformat() <= start < hi.date().isoformat() if len(start) == 10 else stamp(lo) <= start < stamp(hi)


def finish(found, lo, hi):
    return sorted([[s, str(t)] for s, t in found if in_window(s, lo, hi)])


def key(value):
    """What identifies an instance: its instant, or its date."""
    return stamp(value)


def read_icalendar(text, lo, hi):
    import icalendar
    from dateutil.rrule import rrulestr

    cal = icalendar.Calendar.from_ical(text)
    events = list(cal.walk("VEVENT"))
    overrides = {}
    for ev in events:
        if "RECURRENCE-ID" in ev:
            overrides.setdefault(str(ev["UID"]), {})[key(ev.decoded("RECURRENCE-ID"))] = ev
    masters = {str(ev["UID"]) for ev in events if "RECURRENCE-ID" not in ev}
    found = []
    for ev in events:
        if "RECURRENCE-ID" in ev:
            if str(ev["UID"]) not in masters:
                found.append((stamp(ev.decoded("DTSTART")), ev["SUMMARY"]))
            continue
        start = ev.decoded("DTSTART")
        timed = isinstance(start, dt.datetime)
        place = (lambda naive: start.tzinfo.localize(naive)) if timed and hasattr(start.tzinfo, "localize") else (
            (lambda naive: naive.replace(tzinfo=start.tzinfo)) if timed else (lambda naive: naive.date()))
        instances = []
        if "RRULE" in ev:
            rule = ev["RRULE"]
            until = rule.get("UNTIL", [None])[0]
            # dateutil takes the rule without UNTIL, which is compared with the placed instants below.
            text_rule = re.sub(r"(^|;)UNTIL=[^;]*", "", rule.to_ical().decode()).strip(";")
            naive = start.replace(tzinfo=None) if timed else dt.datetime.combine(start, dt.time())
            limit = hi.replace(tzinfo=None) + dt.timedelta(days=2)
            for wall in rrulestr(text_rule, dtstart=naive):
                if wall > limit:
                    break
                at = place(wall)
                if until is not None:
                    if isinstance(until, dt.datetime) and isinstance(at, dt.datetime) and at > until:
                        break
                    if not isinstance(until, dt.datetime) and (at.date() if isinstance(at, dt.datetime) else at) > until:
                        break
                instances.append(at)
        else:
            instances.append(start)
        values = ev.get("RDATE", [])
        for group in values if isinstance(values, list) else [values]:
            instances.extend(d.dt for d in group.dts)
        excluded = set()
        values = ev.get("EXDATE", [])
        for group in values if isinstance(values, list) else [values]:
            excluded.update(key(d.dt) for d in group.dts)
        own = overrides.get(str(ev["UID"]), {})
        for at in instances:
            k = key(at)
            if k in excluded:
                continue
            if k in own:
                found.append((stamp(own[k].decoded("DTSTART")), own[k]["SUMMARY"]))
            else:
                found.append((k, ev["SUMMARY"]))
    return finish(found, lo, hi)


def read_recurring_ical_events(text, lo, hi):
    import icalendar
    import recurring_ical_events

    cal = icalendar.Calendar.from_ical(text)
    found = [(stamp(ev["DTSTART"].dt), ev["SUMMARY"]) for ev in recurring_ical_events.of(cal).between(lo, hi)]
    return finish(found, lo, hi)


def read_vobject(text, lo, hi):
    import vobject

    cal = vobject.readOne(text)
    events = list(getattr(cal, "vevent_list", []))
    overrides = {}
    for ev in events:
        if hasattr(ev, "recurrence_id"):
            overrides.setdefault(ev.uid.value, {})[key(ev.recurrence_id.value)] = ev
    masters = {ev.uid.value for ev in events if not hasattr(ev, "recurrence_id")}
    found = []
    for ev in events:
        if hasattr(ev, "recurrence_id"):
            if ev.uid.value not in masters:
                found.append((stamp(ev.dtstart.value), ev.summary.value))
            continue
        start = ev.dtstart.value
        timed = isinstance(start, dt.datetime)
        rules = ev.getrruleset(addRDate=True)
        if rules is None:
            instances = [start]
        elif timed:
            instances = rules.between(lo - dt.timedelta(days=2), hi + dt.timedelta(days=2), inc=True)
        else:
            instances = [d.date() for d in rules.between(lo.replace(tzinfo=None) - dt.timedelta(days=2), hi.replace(tzinfo=None) + dt.timedelta(days=2), inc=True)]
        own = overrides.get(ev.uid.value, {})
        for at in instances:
            k = key(at)
            if k in own:
                found.append((stamp(own[k].dtstart.value), own[k].summary.value))
            else:
                found.append((k, ev.summary.value))
    return finish(found, lo, hi)


def main():
    lo_text, hi_text, *files = sys.argv[1:]
    lo = dt.datetime.strptime(lo_text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    hi = dt.datetime.strptime(hi_text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    result = {}
    for file in files:
        with open(file, encoding="utf-8") as f:
            text = f.read()
        result[file] = {}
        for name, read in (("icalendar", read_icalendar), ("recurring-ical-events", read_recurring_ical_events), ("vobject", read_vobject)):
            try:
                result[file][name] = read(text, lo, hi)
            except Exception as error:  # a parser that refuses the file is a result of the matrix
                result[file][name] = {"error": f"{type(error).__name__}: {error}"}
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()
