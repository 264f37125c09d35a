//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

// The measurement behind the keyed pacers' timer structure (README, "Pacing
// per key"): the keyed driver on each of the three structures, in one run,
// interleaved, at a million keys. Run it in release mode:
//
//     swift run -c release KeyedTimerComparison
//
// It uses Pace's `package` API (the structures are not public), which is why
// it lives in this package and not in Benchmarks/.

import KeyedTimerCandidates
import Pace

typealias Machine = DebounceStateMachine<Int, DriverInstant>

let keys = 1_000_000
let clock = ContinuousClock()
var generator = SystemRandomNumberGenerator()
let randomKeys = (0..<keys).map { _ in Int.random(in: 0..<keys, using: &generator) }

/// The handler's record of lateness: one delivery at a time, so a plain
/// buffer behind a lock is enough.
final class Lateness: Sendable {
  let samples = LockedState<[Int64]>([])
  func record(_ nanoseconds: Int64) { samples.withLock { $0.append(nanoseconds) } }
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

func percentile(_ sorted: [Int64], _ fraction: Double) -> Double {
  sorted.isEmpty ? .nan : Double(sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]) / 1e6
}

/// A policy that holds its value until the instant the value names: the
/// measurement chooses every deadline.
struct FireAt: PacingStateMachine {
  var pending: Int64?

  var deadline: DriverInstant? { pending.map(DriverInstant.init(nanoseconds:)) }
  var hasPendingValue: Bool { pending != nil }
  var isDiscardable: Bool { pending == nil }

  mutating func valueReceived(_ value: Int64, at now: DriverInstant) -> PacingAction<Int64> {
    pending = value
    return .none
  }

  mutating func timerFired(at now: DriverInstant) -> PacingAction<Int64> {
    guard let value = pending, value <= now.nanoseconds else { return .none }
    pending = nil
    return .emit(value)
  }

  mutating func upstreamFinished(at now: DriverInstant) -> PacingAction<Int64> { .finish }
  mutating func upstreamFailed(at now: DriverInstant) -> PacingAction<Int64> { .fail }
}

/// Sends to 1M live keys, at random and to 10,000 hot ones; then 1M keys
/// due evenly over 10 s, and 1M due at one instant: lateness, and the time
/// to deliver them all.
func measure<Timers: KeyedTimerQueue>(_: Timers.Type, name: String) async -> [String] {
  var lines: [String] = []
  do {
    let keyed = KeyedPacerStorage<Int, Machine, Timers>(
      prototype: Machine(interval: .seconds(600)), clock: clock
    ) { _, _ in }
    let fill = clock.now
    for key in 0..<keys { keyed.send(key, for: key) }
    let create = Double((clock.now - fill) / .nanoseconds(1)) / Double(keys)
    var randomRounds: [Double] = []
    var hotRounds: [Double] = []
    for round in 0..<5 {
      let count = 500_000
      var start = clock.now
      for i in 0..<count { keyed.send(i, for: randomKeys[(round * count + i) % keys]) }
      randomRounds.append(Double((clock.now - start) / .nanoseconds(1)) / Double(count))
      for i in 0..<10_000 { keyed.send(i, for: i) }
      start = clock.now
      for i in 0..<count { keyed.send(i, for: randomKeys[(round * count + i) % keys] % 10_000) }
      hotRounds.append(Double((clock.now - start) / .nanoseconds(1)) / Double(count))
    }
    lines.append(
      "\(name): send to a new key \(Int(create)) ns (1M keys made); to a live key: random \(Int(median(randomRounds))) ns, "
        + "hot \(Int(median(hotRounds))) ns (median of 5 × 500k)")
    keyed.shutDown()
  }
  for (label, spread) in [("1M deadlines spread evenly over 10 s", Duration.seconds(10)), ("1M due at one instant", .zero)] {
    let lateness = Lateness()
    let origin = LockedState<(clock: ContinuousClock.Instant, driver: Int64)?>(nil)
    let keyed = KeyedPacerStorage<Int, FireAt, Timers>(prototype: FireAt(), clock: clock) { _, deadline in
      let (clockOrigin, driverOrigin) = origin.withLock { $0! }
      let late = clock.now - (clockOrigin + .nanoseconds(deadline - driverOrigin))
      lateness.record(Int64(late / .nanoseconds(1)))
    }
    let (start, driverStart) = (clock.now, keyed.now.nanoseconds)
    origin.withLock { $0 = (start, driverStart) }
    // Every deadline 2 s from now at the earliest (sending a million takes about 1 s), the last `spread` later.
    let first = driverStart + 2_000_000_000
    let step = Int64(spread / .nanoseconds(1)) / Int64(keys)
    for key in 0..<keys { keyed.send(first + Int64(key) * step, for: key) }
    let sent = clock.now - start
    while lateness.samples.withLock({ $0.count }) < keys, clock.now - start < spread + .seconds(40) {
      try? await Task.sleep(for: .milliseconds(5))
    }
    let samples = lateness.samples.withLock { $0.sorted() }
    let done = clock.now - (start + .nanoseconds(first - driverStart))
    lines.append(
      "\(name): \(label): \(samples.count) delivered (sent in \(sent)); lateness p50 \(percentile(samples, 0.5)) ms, p99 \(percentile(samples, 0.99)) ms, max \(percentile(samples, 1)) ms"
        + (spread == .zero ? "; the last delivered \(done) after the deadline" : ""))
    keyed.shutDown()
  }
  return lines
}

/// The floor of a send to a random key among a million: a read that
/// depends on the one before (as a slot read depends on its index bucket),
/// in arrays the size of the keyed pacer's index (8 MiB) and slots (80 MiB).
/// A bare dictionary's writes in a loop do not depend on one another, and
/// the processor overlaps their cache misses; sends under a lock cannot.
func memoryFloor() -> String {
  var results: [String] = []
  for megabytes in [8, 80] {
    let count = megabytes << 17  // 8-byte words.
    var shuffler = SystemRandomNumberGenerator()
    var order = Array(0..<count)
    order.shuffle(using: &shuffler)
    var next = [Int](repeating: 0, count: count)
    for index in 0..<count { next[order[index]] = order[(index + 1) % count] }
    let reads = 2_000_000
    var position = 0
    let start = clock.now
    for _ in 0..<reads { position = next[position] }
    let perRead = Int((((clock.now - start) / reads) / .nanoseconds(1)).rounded())
    results.append("\(megabytes) MiB \(perRead) ns" + (position < 0 ? "" : ""))  // Reads that are used are made.
  }
  return "memory floor, a random read that depends on the one before: " + results.joined(separator: ", ")
}

// `KeyedTimerComparison lazy` (or `eager`, `wheel`, `floor`) measures one thing only.
let only = CommandLine.arguments.dropFirst().first
var report: [String] = []
if only == nil || only == "lazy" { report += await measure(LazyTimerHeap.self, name: "lazy heap ") }
if only == nil || only == "eager" { report += await measure(EagerTimerHeap.self, name: "eager heap") }
if only == nil || only == "wheel" { report += await measure(TimerWheel.self, name: "1 ms wheel") }
if only == nil || only == "floor" { report.append(memoryFloor()) }
print(report.sorted().joined(separator: "\n"))
