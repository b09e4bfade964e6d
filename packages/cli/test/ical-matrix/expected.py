"""Computes the expected occurrences of corpus.json, independently of evcal, and writes them
into it: each series' rule expanded by dateutil on its local wall clock (RFC 5545), its RDATEs
added and EXDATEs removed, each wall clock placed in its zone by Python's zoneinfo with fold=0
(a time in a skipped hour moves forward by the gap; one in a repeated hour is the first of the
two), its changes applied. Run it with /usr/bin/python3 after changing the corpus, and read the
diff. Usage: /usr/bin/python3 expected.py
"""
import datetime as dt
import json
import os
import re
from zoneinfo import ZoneInfo

from dateutil.rrule import rrulestr

UTC = dt.timezone.utc
HERE = os.path.dirname(os.path.abspath(__file__))


def zone(name):
    m = re.fullmatch(r"UTC([+-])(\d{1,2})", name)
    if m:
        return dt.timezone((1 if m[1] == "+" else -1) * dt.timedelta(hours=int(m[2])))
    return ZoneInfo(name)


def wall(text):
    return dt.datetime.strptime(text, "%Y-%m-%d %H:%M:%S")


def place(naive, tz):
    """The instant of a wall clock (fold=0) and the wall clock it shows (moved out of a gap)."""
    at = naive.replace(tzinfo=tz, fold=0).astimezone(UTC)
    return at, at.astimezone(tz).replace(tzinfo=None)


def expand(event):
    rec = event["recurrence"]
    rec = {"rrule": rec, "rdate": [], "exdate": []} if isinstance(rec, str) else {"rdate": [], "exdate": [], **rec}
    all_day = event.get("all_day", False)
    first = wall(event["start_date"] if not all_day else event["start_date"] + " 00:00:00")
    tz = zone(event.get("timezone", "Europe/Rome"))
    walls = set()
    if rec["rrule"]:
        parts = dict(p.split("=", 1) for p in rec["rrule"].split(";"))
        until = parts.pop("UNTIL", None)
        rule = rrulestr(";".join(f"{k}={v}" for k, v in parts.items()), dtstart=first)
        if until and len(until) == 8:
            until_at = dt.datetime.strptime(until + "235959", "%Y%m%d%H%M%S").replace(tzinfo=tz)
        elif until:
            until_at = dt.datetime.strptime(until, "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC)
        else:
            until_at = None
        for w in rule:
            if w.year > 2030 or (until_at and place(w, tz)[0] > until_at):
                break
            walls.add(w)
    else:
        walls.add(first)
    walls.update(wall(r if not all_day else r[:10] + " 00:00:00") for r in rec["rdate"])
    out = {}
    for w in sorted(walls):
        if any(x == w.strftime("%Y-%m-%d %H:%M:%S") or x == w.strftime("%Y-%m-%d") for x in rec["exdate"]):
            continue
        if all_day:
            out[w.date().isoformat()] = [w.date().isoformat(), w.strftime("%Y-%m-%d 00:00:00"), event["title"]]
        else:
            at, shown = place(w, tz)
            out[w.date().isoformat()] = [at.strftime("%Y-%m-%dT%H:%M:%SZ"), shown.strftime("%Y-%m-%d %H:%M:%S"), event["title"]]
    return out, tz


def main():
    path = os.path.join(HERE, "corpus.json")
    with open(path, encoding="utf-8") as f:
        corpus = json.load(f)
    for series in corpus["series"]:
        occurrences, tz = expand(series["event"])
        for change in series.get("changes", []):
            if change.get("delete"):
                del occurrences[change["date"]]
                continue
            o = occurrences[change["date"]]
            patch = change["patch"]
            if "start_date" in patch:
                at, shown = place(wall(patch["start_date"]), tz)
                o[0], o[1] = at.strftime("%Y-%m-%dT%H:%M:%SZ"), shown.strftime("%Y-%m-%d %H:%M:%S")
            o[2] = patch.get("title", o[2])
        lo, hi = series.get("window", corpus["window"])
        series["expected"] = [o for o in occurrences.values() if (lo[:10] <= o[0] < hi[:10] if len(o[0]) == 10 else lo <= o[0] < hi)]
    text = json.dumps(corpus, indent=2, ensure_ascii=False)
    # One occurrence a line.
    text = re.sub(r"\[\s+(\"[^\"]*\"),\s+(\"[^\"]*\"),\s+(\"[^\"]*\")\s+\]", r"[\1, \2, \3]", text)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text + "\n")


if __name__ == "__main__":
    main()
