#!/usr/bin/env python3
# Reads the histogram percentile exports of one benchmark run and prints the
# comparison table. Benchmark names are "<group> | <contender>".
import glob
import os
import platform
import sys

SUFFIX = ".histogram.percentiles.tsv"


def load(folder):
    results = {}  # (group, contender) -> {metric: {percentile: value}}
    for path in glob.glob(os.path.join(folder, "*" + SUFFIX)):
        stem = os.path.basename(path)[: -len(SUFFIX)]
        marker = ".PaceBenchmarks."
        if marker not in stem:
            continue
        name_and_metric = stem.split(marker, 1)[1]
        name, metric = name_and_metric.rsplit(".", 1)
        if "_|_" in name:
            group, contender = (part.replace("_", " ") for part in name.split("_|_", 1))
        elif "_|_" in metric:
            # A benchmark that measures its contenders in turns: "<group>.<contender> | <metric>".
            group = name.replace("_", " ")
            contender, metric = metric.split("_|_", 1)
            contender = contender.replace("_", " ")
        else:
            continue
        values = {}
        with open(path) as handle:
            header = next(handle)
            # Countable metrics are exported in scaled units: "(K)", "(M)", "(G)".
            scale = 1
            for suffix, factor in (("(K)", 1e3), ("(M)", 1e6), ("(G)", 1e9)):
                if suffix in header:
                    scale = factor
            for line in handle:
                percentile, value = line.split("\t")
                values[int(percentile)] = float(value) * scale
        results.setdefault((group, contender), {})[metric] = values
    return results


def held(group):
    """How many objects a memory benchmark holds: 100,000 pacers, or 1,000,000 keys."""
    return 1_000_000 if group.startswith("keyed memory") else 100_000


# The keyed benchmarks at scale (issue 18): each records figures of its own,
# which `keyed_at_scale` prints, rather than one time per contender.
KEYED_AT_SCALE = ("keyed lateness 1M over 10 s", "keyed due at once 1M", "keyed send tasks", "keyed peers 1M",
                  "keyed churn 10M")
# Their sizes, as KeyedTimerBenchmarks.swift, KeyedScalingBenchmarks.swift
# and KeyedPeerBenchmarks.swift set them.
KEYED_KEYS = 1_000_000
KEYED_SEND_TASKS = (1, 2, 8)
KEYED_SEND_LIVE_KEYS = 80_000
KEYED_PEER_CAP = 1 << 30
KEYED_CHURN_KEYS = 10_000_000
KEYED_CHURN_LIVE = 10_000
MIB = 1 << 20


def fmt(value, unit=""):
    if value is None:
        return "-"
    if value >= 100:
        text = f"{value:,.0f}"
    elif value >= 10:
        text = f"{value:.1f}"
    else:
        text = f"{value:.2f}"
    return text + unit


def gate(results):
    """CI's quick pass: a send in steady state, and a whole debounce burst (send,
    firing, delivery), allocate nothing, in any sample."""
    failed = False
    # A burst allocates nothing either way: by default the handler runs on Pace's
    # delivery threads, with `.inline` on the timer thread.
    for group, contender in [("debounce send", "Pace Debouncer"), ("throttle send", "Pace Throttler"),
                             ("debounce burst", "Pace Debouncer"), ("debounce burst", "Pace Debouncer inline")]:
        mallocs = results.get((group, contender), {}).get("mallocCountTotal")
        if mallocs is None:
            print(f"gate: no malloc count for {contender}", file=sys.stderr)
            failed = True
            continue
        worst = mallocs[100]
        status = "ok" if worst == 0 else "FAILED"
        print(f"gate: {group} | {contender} allocates {worst:g} times per iteration at worst (must be 0): {status}")
        failed = failed or worst != 0
    sys.exit(1 if failed else 0)


def main():
    results = load(sys.argv[1])
    if not results:
        print("no results found", file=sys.stderr)
        sys.exit(1)
    if "--gate" in sys.argv[2:]:
        gate(results)

    def p(group, contender, metric, percentile=50):
        return results.get((group, contender), {}).get(metric, {}).get(percentile)

    rows = []
    groups = []
    for group, contender in sorted(results):
        if group not in groups:
            groups.append(group)

    def is_reference(contender):
        """Measured beside the contenders, but not a peer: what the machine itself does."""
        return contender.endswith("(reference)")

    def pace_contender(group):
        return next((c for g, c in results if g == group and c.startswith("Pace")), None)

    print(f"Machine: {platform.node()}, {os.cpu_count()} cores, {platform.system()} {platform.machine()}")
    print()
    groups = [group for group in groups if group not in KEYED_AT_SCALE]
    header = f"{'benchmark':<26} {'contender':<28} {'p50':>10} {'p99':>10} {'max':>10} {'mallocs':>8} {'peer ÷ Pace':>12}"
    if groups:
        print(header)
        print("-" * len(header))
    for group in groups:
        pace = pace_contender(group)
        contenders = sorted((c for g, c in results if g == group), key=lambda c: (not c.startswith("Pace"), c))
        for contender in contenders:
            metrics = results[(group, contender)]
            if set(metrics) == {"mallocCountTotal"}:  # allocations only: no time to show
                print(f"{group:<26} {contender:<28} {'-':>10} {'-':>10} {'-':>10} "
                      f"{fmt(p(group, contender, 'mallocCountTotal')):>8}")
                continue
            if "wallClock" in metrics:
                metric, unit = "wallClock", " ns"
            elif "memoryLeakedBytes" in metrics:
                metric, unit = "memoryLeakedBytes", " B"
            else:
                metric = next(iter(metrics))
                unit = " ns" if metric.endswith("(ns)") else " µs"
            p50, p99, pmax = p(group, contender, metric), p(group, contender, metric, 99), p(group, contender, metric, 100)
            if metric == "memoryLeakedBytes":  # bytes held by 100,000 pacers (1,000,000 keys): per one
                p50, p99, pmax = (None if v is None else v / held(group) for v in (p50, p99, pmax))
            mallocs = p(group, contender, "mallocCountTotal")
            if metric == "memoryLeakedBytes" and mallocs is not None:
                mallocs /= held(group)
            ratio = ""
            if pace and contender != pace and not is_reference(contender) and p50 and p(group, pace, metric):
                ratio = f"{p(group, contender, metric) / p(group, pace, metric):.1f}×"
            print(f"{group:<26} {contender:<28} {fmt(p50, unit):>10} {fmt(p99, unit):>10} {fmt(pmax, unit):>10} "
                  f"{fmt(mallocs):>8} {ratio:>12}")
        print()

    # Targets of the benchmark issue.
    checks = []

    def check(label, holds, detail):
        if holds is None:
            checks.append(("n/a ", label, "not measured in this run"))
        else:
            checks.append(("HOLDS" if holds else "MISSED", label, detail))

    for group, pace_name, label in [("debounce send", "Pace Debouncer", "Debouncer.send"),
                                    ("throttle send", "Pace Throttler", "Throttler.send")]:
        pace_ns = p(group, pace_name, "wallClock")
        pace_mallocs = p(group, pace_name, "mallocCountTotal")
        work_item = p("debounce send", "DispatchWorkItem", "wallClock")
        combine = p("debounce send", "OpenCombine", "wallClock")
        check(f"{label}: 0 allocations in steady state", None if pace_mallocs is None else pace_mallocs == 0,
              f"p50 {fmt(pace_mallocs)} mallocs per send")
        check(f"{label}: median ≤ 60 ns", None if pace_ns is None else pace_ns <= 60, f"median {fmt(pace_ns, ' ns')}")
        if pace_ns and work_item:
            check(f"{label}: ≥ 20× faster than the DispatchWorkItem debounce", work_item / pace_ns >= 20,
                  f"{work_item / pace_ns:.1f}×")
        if pace_ns and combine:
            check(f"{label}: ≥ 50× faster than OpenCombine debounce", combine / pace_ns >= 50,
                  f"{combine / pace_ns:.1f}×")

    pace = p("debounce immediate base", "Pace debounced", "wallClock")
    peer = p("debounce immediate base", "AsyncAlgorithms debounce", "wallClock")
    if pace and peer:
        check("debounced: ≥ 5× AsyncAlgorithms debounce, base that never suspends", peer / pace >= 5,
              f"{peer / pace:.1f}× ({fmt(pace, ' ns')} vs {fmt(peer, ' ns')} per element)")
    pace = p("debounce stream base", "Pace debounced", "wallClock")
    peer = p("debounce stream base", "AsyncAlgorithms debounce", "wallClock")
    if pace and peer:
        check("debounced: never slower than AsyncAlgorithms on an AsyncStream", pace <= peer,
              f"{peer / pace:.2f}× ({fmt(pace, ' ns')} vs {fmt(peer, ' ns')} per element)")

    pace = p("mapLatest per element", "Pace mapLatest", "wallClock")
    peer = p("mapLatest per element", "AsyncAlgorithms flatMapLatest", "wallClock")
    if pace and peer:
        check("mapLatest per element: AsyncAlgorithms ÷ Pace ≥ 2×", peer / pace >= 2,
              f"{peer / pace:.1f}× ({fmt(pace, ' ns')} vs {fmt(peer, ' ns')} per element)")

    for group, pace_name, peer_name, metric in [
            ("latest run", "Pace LatestTask", "stored Task", "per_call_(ns)"),
            ("single-flight run", "Pace SingleFlight", "actor with task dictionary", "per_call_(ns)"),
            ("single-flight join", "Pace SingleFlight", "actor with task dictionary", "per_call_(ns)")]:
        pace = p(group, pace_name, metric)
        peer = p(group, peer_name, metric)
        if pace and peer:
            handler = p("cancellation handler", "withTaskCancellationHandler", "wallClock")
            bare = p("cancellation handler", "bare async call", "wallClock")
            note = ""
            if group == "single-flight join" and handler and bare:
                note = (f"; each Pace caller can be cancelled while it waits, which costs a cancellation handler:"
                        f" {fmt(handler - bare, ' ns')} a call here")
            check(f"{group}: no slower than the hand-rolled way ({peer_name})", pace <= peer,
                  f"{peer / pace:.2f}× ({fmt(pace, ' ns')} vs {fmt(peer, ' ns')} per call){note}")

    metric = "late_(µs)"
    peers = [c for g, c in results if g == "fire latency" and not c.startswith("Pace") and not is_reference(c)]
    bare50 = p("fire latency", "bare timerfd (reference)", metric)
    for name, label in [("Pace Debouncer", "Pace (default: handler on a delivery thread)"),
                        ("Pace Debouncer inline", "Pace inline (handler on the timer thread)")]:
        pace50 = p("fire latency", name, metric)
        pace99 = p("fire latency", name, metric, 99)
        if pace50 is not None:
            above = "" if bare50 is None else (
                f" (a bare timerfd woken from one sleep, in the same turns: {fmt(bare50, ' µs')})")
            check(f"fire latency: {label} p50 ≤ 150 µs", pace50 <= 150, f"p50 {fmt(pace50, ' µs')}{above}")
        if pace50 is not None and peers:
            best50 = min(p("fire latency", c, metric) for c in peers)
            best99 = min(p("fire latency", c, metric, 99) for c in peers)
            check(f"fire latency: {label} p50 and p99 no worse than the best peer",
                  pace50 <= best50 and pace99 <= best99,
                  f"Pace {fmt(pace50)}/{fmt(pace99)} µs, best peer {fmt(best50)}/{fmt(best99)} µs")
    late = p("late after 1M sends", "Pace Debouncer", metric, 100)
    if late is not None:
        check("after 1,000,000 sends: the trailing call within 1 ms of its deadline", late <= 1_000,
              f"worst {fmt(late, ' µs')} late")
    per_pacer = lambda group, contender: (lambda v: None if v is None else v / 100_000)(
        p(group, contender, "memoryLeakedBytes"))
    idle = per_pacer("memory idle", "Pace Debouncer")
    if idle is not None:
        check("memory: ≤ 200 bytes per idle pacer", idle <= 200, f"{fmt(idle, ' B')}")
    pending = per_pacer("memory pending", "Pace Debouncer")
    work_item = per_pacer("memory pending", "DispatchWorkItem")
    if pending is not None and work_item:
        check("memory: pending pacers ≤ half the DispatchWorkItem pattern's", pending <= work_item / 2,
              f"{fmt(pending, ' B')} vs {fmt(work_item, ' B')}")

    # Keyed pacing (issue 18): 1,000,000 live keys, each with a pending value.
    for group, limit, label in [("keyed memory Int", 120, "Int keys"), ("keyed memory String", 150, "String keys of up to 15 bytes")]:
        bytes_held = p(group, "Pace KeyedDebouncer", "memoryLeakedBytes")
        if bytes_held is not None:
            per_key = bytes_held / held(group)
            check(f"keyed: memory per key ≤ {limit} B, {label}", per_key <= limit, f"{fmt(per_key, ' B')}")
    keyed_random = p("keyed send random", "Pace KeyedDebouncer", "wallClock")
    dictionary = p("keyed send random", "dictionary lookup + write", "wallClock")
    timed = p("keyed send random", "dictionary + clock read", "wallClock")
    if keyed_random is not None and dictionary:
        floor = f"; the same write after a clock read, as a timed send makes: {fmt(timed, ' ns')} ({timed / dictionary:.1f}×)" if timed else ""
        check("keyed: send to random live keys ≤ 2× a dictionary lookup + write", keyed_random <= 2 * dictionary,
              f"{fmt(keyed_random, ' ns')} vs {fmt(dictionary, ' ns')} ({keyed_random / dictionary:.1f}×){floor}")
    hot = p("keyed send hot", "Pace KeyedDebouncer", "wallClock")
    if hot is not None:
        check("keyed: send to 10,000 hot keys among 1M, median ≤ 100 ns", hot <= 100, f"{fmt(hot, ' ns')}")

    keyed_at_scale(results, p, check)

    print("Targets")
    for status, label, detail in checks:
        print(f"  {status:<6} {label}: {detail}")


def keyed_at_scale(results, p, check):
    """Prints the keyed benchmarks at scale (issue 18) and adds their checks."""
    if not any(group in KEYED_AT_SCALE for group, _ in results):
        return
    print(f"Keyed pacing at scale (issue 18; this machine: {os.cpu_count()} cores)")

    def figures(group, contender, *metrics):
        """The median of each metric, or None if the benchmark did not run."""
        values = [p(group, contender, metric) for metric in metrics]
        return None if values[0] is None else values

    group = "keyed lateness 1M over 10 s"
    late = {q: p(group, "Pace KeyedDebouncer", "late_(µs)", q) for q in (50, 99, 100)}
    fired = p(group, "Pace KeyedDebouncer", "keys_fired")
    if fired is not None:
        print(f"  {KEYED_KEYS:,} debounce deadlines spread evenly over 10 s, no-op handler: {fired:,.0f} fired; "
              f"late p50 {fmt(late[50] / 1e3, ' ms')}, p99 {fmt(late[99] / 1e3, ' ms')}, "
              f"max {fmt(late[100] / 1e3, ' ms')}")
        check("keyed: 1M deadlines over 10 s all fire", fired == KEYED_KEYS, f"{fired:,.0f} of {KEYED_KEYS:,}")
        check("keyed: 1M deadlines over 10 s, p99 lateness ≤ 10 ms", late[99] <= 10_000,
              f"p99 {fmt(late[99] / 1e3, ' ms')}")

    due = figures("keyed due at once 1M", "Pace KeyedPacer", "last_delivered_after_(µs)",
                  "first_delivered_after_(µs)", "sending_took_(µs)", "keys_delivered")
    if due:
        last, first, sending, delivered = due
        print(f"  {KEYED_KEYS:,} keys due at one instant (a KeyedPacer whose policy gives every key the first "
              f"send's instant + 3 s; sent in {fmt(sending / 1e3, ' ms')}): {delivered:,.0f} delivered, the first "
              f"{fmt(first / 1e3, ' ms')} and the last {fmt(last / 1e3, ' ms')} after the deadline")
        check("keyed: 1M keys due at one instant all delivered", delivered == KEYED_KEYS,
              f"{delivered:,.0f} of {KEYED_KEYS:,}")
        check("keyed: 1M keys due at one instant delivered within 1 s of it (aim)", last <= 1e6,
              f"last {fmt(last / 1e3, ' ms')} after the deadline")

    per_send = {tasks: p("keyed send tasks", f"{tasks} {'task' if tasks == 1 else 'tasks'}", "per_send_(ns)")
                for tasks in KEYED_SEND_TASKS}
    if per_send[1] is not None:
        print(f"  send throughput, tasks on distinct keys ({KEYED_SEND_LIVE_KEYS:,} live keys, 10,000 per task; "
              f"{os.cpu_count()} cores, so at most {os.cpu_count()} tasks run at once):")
        for tasks, ns in per_send.items():
            if ns is None:
                continue
            scaling = "" if tasks == 1 else f", {per_send[1] / ns:.2f}× the throughput of 1 task"
            print(f"    {tasks} {'task ' if tasks == 1 else 'tasks'}: {1e3 / ns:5.2f} M sends/s "
                  f"({fmt(ns, ' ns')} per send, median of the rounds){scaling}")

    group = "keyed peers 1M"
    peers = ["Pace KeyedDebouncer", "Debouncer per key", "DispatchWorkItem per key", "Task per key"]
    if any(p(group, contender, "keys_reached") is not None for contender in peers):
        print(f"  per-key peers, each key with a pending value, filled until {KEYED_KEYS:,} keys or "
              f"{KEYED_PEER_CAP // MIB:,} MiB of resident growth, whichever first:")
        for contender in peers:
            keys = p(group, contender, "keys_reached")
            if keys is None:
                continue
            per_key = p(group, contender, "bytes_per_key")
            stop = "reached the target" if keys >= KEYED_KEYS else "stopped at the memory cap"
            print(f"    {contender:<26} {keys:>10,.0f} keys ({stop}), {fmt(per_key, ' B')} resident per key")
        held_bytes = p("keyed memory Int", "Pace KeyedDebouncer", "memoryLeakedBytes")
        if held_bytes is not None:
            print(f"    {'(keyed memory Int: Pace':<26} {fmt(held_bytes / KEYED_KEYS, ' B')} allocated per key, "
                  f"malloc's count)")

    churn = figures("keyed churn 10M", "Pace KeyedDebouncer", "held_at_end_(B)", "held_at_peak_(B)",
                    "resident_at_end_(B)", "resident_at_peak_(B)", "keys_delivered", "took_(ms)")
    if churn:
        held_end, held_peak, resident_end, resident_peak, keys, took = churn
        per_key = p("keyed memory Int", "Pace KeyedDebouncer", "memoryLeakedBytes")
        share = "" if per_key is None else \
            f"; the live keys' share: {KEYED_CHURN_LIVE:,} × {fmt(per_key / KEYED_KEYS, ' B')} = " \
            f"{fmt(KEYED_CHURN_LIVE * per_key / KEYED_KEYS / 1024, ' KiB')}"
        print(f"  churn: {keys:,.0f} distinct keys in {fmt(took / 1e3, ' s')}, at most {KEYED_CHURN_LIVE:,} live, "
              f"no sweep: heap held over the baseline {fmt(held_end / 1024, ' KiB')} at the end, "
              f"{fmt(held_peak / 1024, ' KiB')} at the peak (resident {fmt(resident_end / 1024, ' KiB')} / "
              f"{fmt(resident_peak / 1024, ' KiB')}){share}")
        check("keyed churn: all 10M distinct keys sent and delivered", keys == KEYED_CHURN_KEYS,
              f"{keys:,.0f} of {KEYED_CHURN_KEYS:,} (the sender stops after 60 s)")
        check("keyed churn: memory held at the end ≤ 16 MiB over the baseline", held_end <= 16 * MIB,
              f"{fmt(held_end / 1024, ' KiB')}")
        check("keyed churn: memory held at the peak ≤ 64 MiB over the baseline", held_peak <= 64 * MIB,
              f"{fmt(held_peak / 1024, ' KiB')}")
    print()


if __name__ == "__main__":
    main()
