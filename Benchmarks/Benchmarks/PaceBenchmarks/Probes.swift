//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Benchmark
import Dispatch

/// Measures how late a trailing call comes after its theoretical deadline.
enum LatencyProbe {
  /// Bursts per contender: the p99 is then the 5th worst, not the 2nd.
  static let bursts = 500
  static let milliseconds = 20
  static let interval = Duration.milliseconds(milliseconds)

  /// The contenders of the fire latency benchmark, in the order of its first turn.
  static let contenders = [
    "Pace Debouncer", "Pace Debouncer inline", "DispatchWorkItem", "OpenCombine", "bare timerfd (reference)",
  ]

  /// The metric of `contender`'s lateness; `compare` reads "<contender> | late (µs)".
  static func lateMetric(of contender: String) -> BenchmarkMetric {
    .custom("\(contender) | late (µs)", polarity: .prefersSmaller, useScalingFactor: false)
  }

  /// Starts one burst of a contender; see ``measureOnce(_:)``.
  typealias Start = (_ deadline: (ContinuousClock.Instant) -> Void, _ done: @escaping @Sendable () -> Void) -> AnyObject

  /// Records how late each contender's call is over `bursts` bursts each,
  /// the contenders taking turns: one burst each per round, starting with the
  /// next contender every round. Run one after the other, each would meet
  /// its own few seconds of this shared machine: back to back, the same
  /// mechanism's p50 differed by up to 2.4× in a scratch probe. In turns,
  /// a noisy moment falls on all of them alike.
  ///
  /// Each contender's first burst is not recorded: a process's first timer
  /// also pays for starting its timer thread (Pace's, or Dispatch's manager)
  /// and binding its symbols. In a scratch probe the first burst came
  /// 378-493 µs late for Pace and 214-305 µs for `asyncAfter`, against a p50
  /// of 133-156 µs for the rest.
  static func recordInTurns(_ benchmark: Benchmark, _ starts: [String: Start]) async {
    precondition(Set(starts.keys) == Set(contenders), "one start per contender")
    for contender in contenders { _ = await measureOnce(starts[contender]!) }
    for round in 0..<bursts {
      for turn in 0..<contenders.count {
        let contender = contenders[(round + turn) % contenders.count]
        benchmark.measurement(lateMetric(of: contender), await measureOnce(starts[contender]!))
      }
    }
  }

  /// Runs one burst: `start` records the deadline, sends, and returns the
  /// pacer (kept alive until the call); returns how late the call was, in µs.
  static func measureOnce(_ start: Start) async -> Int {
    let arrived = Arrival()
    var deadline = ContinuousClock.now
    let pacer = start({ deadline = $0 }, { arrived.signal() })
    let at = await arrived.wait()
    withExtendedLifetime(pacer) {}
    let late = deadline.duration(to: at)
    // A call before its deadline would be a bug; report it rather than clamp it.
    precondition(late >= .zero, "called \(late) before the deadline")
    return Int(late / .microseconds(1))
  }

  /// A flag set once, read from any thread.
  final class Flag: @unchecked Sendable {
    // @unchecked Sendable: `value` is only accessed on `queue`.
    private var value = false
    private let queue = DispatchQueue(label: "flag")
    func set() { queue.sync { value = true } }
    var isSet: Bool { queue.sync { value } }
  }

  /// The instant of the first call, for a task to await without blocking a
  /// thread (a blocked thread would starve Swift's two-thread pool here and
  /// delay the very timers being measured).
  final class Arrival: @unchecked Sendable {
    // @unchecked Sendable: `instant` and `waiter` are only accessed on `queue`.
    private var instant: ContinuousClock.Instant?
    private var waiter: CheckedContinuation<ContinuousClock.Instant, Never>?
    private let queue = DispatchQueue(label: "arrival")

    func signal() {
      let now = ContinuousClock.now
      let waiter = queue.sync { () -> CheckedContinuation<ContinuousClock.Instant, Never>? in
        guard instant == nil else { return nil }
        instant = now
        defer { self.waiter = nil }
        return self.waiter
      }
      waiter?.resume(returning: now)
    }

    func wait() async -> ContinuousClock.Instant {
      await withCheckedContinuation { continuation in
        let arrived = queue.sync { () -> ContinuousClock.Instant? in
          if let instant { return instant }
          waiter = continuation
          return nil
        }
        if let arrived { continuation.resume(returning: arrived) }
      }
    }
  }
}

/// Measures `send` in steady state.
enum SendProbe {
  /// Sends once unmeasured (a debounce arms its timer, a throttle opens its
  /// window: what follows is the steady state), then once per iteration.
  /// Inlined, so that the loop calls the contender's `send` directly.
  @inline(__always)
  static func measure(_ benchmark: Benchmark, _ send: (Int) -> Void) {
    send(-1)
    benchmark.startMeasurement()
    for value in benchmark.scaledIterations { send(value) }
    benchmark.stopMeasurement()
  }
}

/// Counts what a whole burst allocates: one send, the timer firing, the
/// handler running.
enum BurstProbe {
  /// `make` builds a contender whose handler signals `called`, and returns
  /// its send. Each iteration sends once and waits for the handler. The
  /// wait is a semaphore: unlike awaiting a continuation, it allocates
  /// nothing, so the count is the contender's own, on every thread (its
  /// timer's too). The first burst is not measured: it sizes the
  /// contender's buffers.
  static func countAllocations(
    _ benchmark: Benchmark, _ make: (_ called: DispatchSemaphore) throws -> () -> Void
  ) rethrows {
    let called = DispatchSemaphore(value: 0)
    let send = try make(called)
    send()
    called.wait()
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      send()
      called.wait()
    }
    benchmark.stopMeasurement()
  }
}

/// Holds `count` objects across the end of a measurement, so that the
/// benchmark's "memory leaked (bytes)" is the memory they hold.
enum MemoryProbe {
  static let count = 100_000

  static func hold<T>(_ benchmark: Benchmark, _ make: (Int) -> T) {
    var objects: [T] = []
    objects.reserveCapacity(count)
    benchmark.startMeasurement()
    for index in 0..<count { objects.append(make(index)) }
    benchmark.stopMeasurement()
    withExtendedLifetime(objects) {}
  }
}
