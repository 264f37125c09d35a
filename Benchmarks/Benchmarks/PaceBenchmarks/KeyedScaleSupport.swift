//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Benchmark
import Dispatch
import MemoryStats
import Synchronization

// What the keyed benchmarks at scale share: whole nanoseconds, a record of
// what a handler received, and the process's memory.

/// A metric that keeps each value as recorded (no scaling), for `compare` to
/// read as "<name>" of the benchmark.
func keyedMetric(_ name: String, prefersLarger: Bool = false) -> BenchmarkMetric {
  .custom(name, polarity: prefersLarger ? .prefersLarger : .prefersSmaller, useScalingFactor: false)
}

/// A configuration that records `metrics` once (or per sample) in one
/// iteration, with no warm-up: each of these runs is long, and what it
/// measures is its own.
func keyedScaleConfiguration(_ metrics: [BenchmarkMetric], maxDuration: Duration = .seconds(180)) -> Benchmark.Configuration {
  Benchmark.Configuration(
    metrics: metrics, timeUnits: .nanoseconds, units: Dictionary(uniqueKeysWithValues: metrics.map { ($0, .count) }),
    warmupIterations: 0, scalingFactor: .one, maxDuration: maxDuration, maxIterations: 1)
}

extension Duration {
  /// The duration in whole nanoseconds.
  var wholeNanoseconds: Int {
    let (seconds, attoseconds) = components
    return Int(seconds) &* 1_000_000_000 &+ Int(attoseconds / 1_000_000_000)
  }
}

/// Counts a handler's calls and keeps what the benchmark needs of each, from
/// whatever thread the handler runs on. A lock, rather than relying on the
/// keyed pacer calling its handler one call at a time: it costs tens of
/// nanoseconds a call, and stays right whatever the storage does inside.
final class DeliveryLog: Sendable {
  struct State {
    var count = 0
    var first: ContinuousClock.Instant?
    var last: ContinuousClock.Instant?
    /// Calls per key, for keys `0..<expected`: each must be called exactly once.
    var callsPerKey: [UInt8]
    /// One value per call (such as how late it came), if asked for.
    var samples: [Int]
  }

  let expected: Int
  private let state: Mutex<State>
  private let done = DispatchSemaphore(value: 0)

  init(expected: Int, keepsSamples: Bool) {
    self.expected = expected
    var samples: [Int] = []
    if keepsSamples { samples.reserveCapacity(expected) }
    state = Mutex(State(callsPerKey: [UInt8](repeating: 0, count: expected), samples: samples))
  }

  /// The handler's call for `key`, at `now`, with `sample` kept if asked for.
  func record(key: Int, at now: ContinuousClock.Instant, sample: Int? = nil) {
    let isLast = state.withLock { state -> Bool in
      state.count += 1
      if state.first == nil { state.first = now }
      state.last = now
      if key >= 0, key < expected { state.callsPerKey[key] &+= 1 }
      if let sample { state.samples.append(sample) }
      return state.count == expected
    }
    if isLast { done.signal() }
  }

  var count: Int { state.withLock { $0.count } }

  /// Waits until every expected call came, or fails the whole run loudly
  /// after `timeout`: a key that never fires is a bug, never a slow figure.
  func waitForAll(timeout: Duration, _ what: String) -> State {
    if done.wait(timeout: .now() + .nanoseconds(timeout.wholeNanoseconds)) == .timedOut {
      fatalError("\(what): only \(count) of \(expected) handler calls came within \(timeout)")
    }
    return state.withLock { state in
      if let key = state.callsPerKey.firstIndex(where: { $0 != 1 }) {
        fatalError("\(what): key \(key) was handled \(state.callsPerKey[key]) times, not once")
      }
      return state
    }
  }
}

/// A count that any thread moves and reads.
final class AtomicCounter: Sendable {
  private let count = Atomic<Int>(0)

  func increment() { count.add(1, ordering: .relaxed) }
  var value: Int { count.load(ordering: .relaxed) }
}

/// The process's memory, as the keyed benchmarks at scale measure it.
enum ProcessMemory {
  /// Resident set size, in bytes.
  static var resident: Int { Int(c_pace_resident_bytes()) }

  /// Bytes the allocator handed out and has not taken back.
  static var heapInUse: Int { Int(c_pace_heap_bytes_in_use()) }

  /// Gives the allocator's free pages back to the system, so that a resident
  /// size read next counts what is live, not what earlier work left free.
  static func releaseFreeMemory() { c_pace_release_free_memory() }
}
