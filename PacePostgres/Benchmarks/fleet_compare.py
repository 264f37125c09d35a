#!/usr/bin/env python3
# Reads the probes' output of PacePostgres/Benchmarks/fleet-compare and
# prints the table and the targets of issue 19, as Benchmarks/compare does.
import glob
import os
import platform
import sys

folder, seconds = sys.argv[1], float(sys.argv[2])


def read(name):
    counts, lateness = {}, []
    for path in sorted(glob.glob(os.path.join(folder, f"{name}-*.out"))):
        for line in open(path):
            fields = line.split()
            if fields and fields[0] == "S":
                for field in fields[1:]:
                    key, value = field.split("=")
                    counts.setdefault(key, []).append(float(value))
            elif fields and fields[0] == "E" and len(fields) == 8:
                lateness.append(int(fields[7]) / 1e3 - int(fields[5]))  # µs
    return counts, sorted(lateness)


def percentile(values, p):
    return values[min(len(values) - 1, int(len(values) * p))] if values else float("nan")


def rate(counts):
    # Each process sent for the same wall time: the sum of their rates.
    return sum(s / t for s, t in zip(counts.get("sends", []), counts.get("seconds", [])))


floor, _ = read("floor")
prepared, _ = read("prepared")
pace, pace_late = read("pace")
polling, polling_late = read("polling")
reference, reference_late = read("reference")
# The floor is the faster of the two upserts: as written (an unnamed
# statement, parsed and planned at every call) and prepared once per
# connection, as Pace's frequent calls are.
unnamed_rate, prepared_rate = rate(floor), rate(prepared)
floor_rate = max(unnamed_rate, prepared_rate) or float("nan")
pace_rate, polling_rate = rate(pace), rate(polling)
pace_sends = sum(pace.get("sends", [0]))

print(f"Machine: {platform.node()}, {os.cpu_count()} cores, {platform.system()} {platform.machine()}")
print(f"Fleet pacing (issue 19): 4 processes, 10,000 keys, {seconds:g} s per run, PostgreSQL 15 on a Unix socket")
print()
header = f"{'run':<44} {'sends/s':>10} {'× floor':>8} {'stmts/send':>10} {'NOTIFY/send':>11} {'late p50':>9} {'late p99':>9}"
print(header)
print("-" * len(header))
for label, rate_ in [("floor: INSERT … ON CONFLICT DO UPDATE", unnamed_rate),
                    ("floor: the same, prepared per connection", prepared_rate)]:
    if rate_:
        print(f"{label:<44} {rate_:>10,.0f} {rate_ / floor_rate:>8.2f} {1:>10.2f} {'-':>11} {'-':>9} {'-':>9}")
for label, counts, rate_, late in [
    ("Pace FleetPacer (debounce 500 ms)", pace, pace_rate, pace_late),
    ("same pacer, workers polling every 1 s", polling, polling_rate, polling_late),
] + ([("reference: minimal lifecycle (not a pacer)", reference, rate(reference), reference_late)] if reference else []):
    sends = sum(counts.get("sends", [0])) or 1
    print(f"{label:<44} {rate_:>10,.0f} {rate_ / floor_rate:>8.2f} {sum(counts.get('statements', [0])) / sends:>10.2f} "
          f"{sum(counts.get('notifications', [0])) / sends:>11.4f} {percentile(late, .5) / 1e3:>7.1f}ms "
          f"{percentile(late, .99) / 1e3:>7.1f}ms")
if reference:
    print("(reference: one upsert a send, and one statement that leases due rows and removes delivered ones,")
    print(" at most every 15 ms per process; no policy state, no per-key order, no leading edge: what a")
    print(" minimal at-least-once fleet debounce reaches on this client and server)")


def slow_statements(name):
    # The server's log of the run: statements of 50 ms or more, and of
    # those, the commits (a wait for the disk's flush of the log).
    path = os.path.join(folder, f"{name}.server.log")
    durations, commits = [], []
    for line in open(path, errors="replace") if os.path.exists(path) else []:
        if " LOG:  duration: " in line:
            milliseconds = float(line.split(" LOG:  duration: ")[1].split()[0])
            durations.append(milliseconds)
            if line.rstrip().endswith("COMMIT;") or line.rstrip().endswith("COMMIT"):
                commits.append(milliseconds)
    return durations, commits


def server_cpu(name):
    # The server's CPU seconds during the run (fleet-compare's server_cpu,
    # before and after); None when unread.
    try:
        before, after = (float(open(os.path.join(folder, f"{name}.cpu-{when}")).read()) for when in ("before", "after"))
        return after - before
    except (OSError, ValueError):
        return None


def wal_flushes(name):
    # The write-ahead log's flushes during the run (pg_stat_wal, before and
    # after it): how many, the milliseconds they took, the bytes written and
    # the full-page images among them.
    try:
        before, after = (open(os.path.join(folder, f"{name}.wal-{when}")).read().strip().split("|")
                         for when in ("before", "after"))
        return (int(after[0]) - int(before[0]), float(after[1]) - float(before[1]),
                int(after[2]) - int(before[2]), int(after[3]) - int(before[3]))
    except (OSError, ValueError, IndexError):
        return None


print()
print("The disk, per run: write-ahead log flushes (pg_stat_wal), and statements that took 50 ms or more")
print("(the server's log; a slow flush shows there only in an explicit COMMIT, a fold's):")
for name in ("floor", "prepared", "pace", "polling", "reference"):
    if not os.path.exists(os.path.join(folder, f"{name}.server.log")):
        continue
    durations, commits = slow_statements(name)
    flushes = wal_flushes(name)
    sends = sum(read(name)[0].get("sends", [0])) or 1
    flushed = (f"{flushes[0]:,} flushes, {flushes[1]:,.0f} ms in all, {flushes[1] / max(flushes[0], 1):.2f} ms each on average; "
               f"{flushes[2] / sends:,.0f} bytes and {flushes[3] / sends:.2f} full pages a send"
               if flushes else "flushes not read")
    longest = f", longest {max(durations):,.0f} ms" if durations else ""
    print(f"  {name:<8} {flushed}; slow statements {len(durations)}{longest}, commits among them {len(commits)}")
print()
print("The CPU a send, per run (the four probes' own, user and system; the server's backends,")
print("counted as they end; on this machine's cores, throughput follows it):")
for name in ("floor", "prepared", "pace", "polling", "reference"):
    counts = read(name)[0]
    if not counts:
        continue
    sends = sum(counts.get("sends", [0])) or 1
    probes = sum(counts.get("cpu", [])) if len(counts.get("cpu", [])) == len(counts.get("sends", [])) else None
    server = server_cpu(name)
    parts = [f"probes {probes * 1e3 / sends:.2f} ms" if probes is not None else "probes not read",
             f"server {server * 1e3 / sends:.2f} ms" if server is not None else "server not read"]
    total = f"{(probes + server) * 1e3 / sends:.2f} ms" if probes is not None and server is not None else "-"
    print(f"  {name:<9} {total} ({', '.join(parts)})")
print()
checks = [
    ("fleet: sends/s from 4 processes ≥ 0.5× the upsert floor (the faster one)", pace_rate >= 0.5 * floor_rate,
     f"{pace_rate:,.0f} vs {floor_rate:,.0f} ({pace_rate / floor_rate:.2f}×)"),
    ("fleet: NOTIFY per send ≤ 0.01", sum(pace.get("notifications", [0])) / max(pace_sends, 1) <= 0.01,
     f"{sum(pace.get('notifications', [0])) / max(pace_sends, 1):.4f} ({sum(pace.get('notifications', [0])):.0f} in {pace_sends:,.0f} sends)"),
    ("fleet: fire lateness p50 ≤ 10 ms", percentile(pace_late, .5) <= 10_000,
     f"{percentile(pace_late, .5) / 1e3:.1f} ms over {len(pace_late):,} emissions (polling: {percentile(polling_late, .5) / 1e3:.0f} ms)"),
    ("fleet: fire lateness p99 ≤ 50 ms", percentile(pace_late, .99) <= 50_000,
     f"{percentile(pace_late, .99) / 1e3:.1f} ms (polling: {percentile(polling_late, .99) / 1e3:.0f} ms)"),
]
print("Targets")
for label, ok, detail in checks:
    print(f"  {'holds' if ok else 'missed':<6} {label}: {detail}")

# What the probes said on standard error (warnings and errors only): a
# stalled or failed worker round shows here, not only in the lateness.
said = {}
for path in sorted(glob.glob(os.path.join(folder, "*.err"))):
    run_name = os.path.basename(path).rsplit("-", 1)[0]
    for line in open(path, errors="replace"):
        fields = line.split(" ", 3)  # time, level, label, the rest
        if len(fields) == 4 and fields[1] in ("warning", "error", "critical"):
            message = f"{fields[1]}: {fields[3].strip()}"[:200]
            said[(run_name, message)] = said.get((run_name, message), 0) + 1
if said:
    print()
    print("The probes said")
    for (run_name, message), count in sorted(said.items())[:20]:
        print(f"  {run_name}: {count}× {message}")
    if len(said) > 20:
        print(f"  … and {len(said) - 20} more")
