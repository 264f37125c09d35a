//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Benchmark
import Dispatch

/// Measures how late a trailing call comes after its theoretical deadline.
enum LatencyProbe {
  static let bursts = 200
  static let milliseconds = 20
  static let interval = Duration.milliseconds(milliseconds)

  /// Records how late the call is over `bursts` bursts, after one burst that
  /// is not recorded: a process's first timer also pays for starting its
  /// timer thread (Pace's, or Dispatch's manager) and binding its symbols.
  /// In a scratch probe the first burst came 378-493 µs late for Pace and
  /// 214-305 µs for `asyncAfter`, against a p50 of 133-156 µs for the rest.
  /// The figures are about the steady state; every contender gets the same.
  static func recordBursts(
    _ benchmark: Benchmark,
    _ start: (_ deadline: (ContinuousClock.Instant) -> Void, _ done: @escaping @Sendable () -> Void) -> AnyObject
  ) async {
    _ = await measureOnce(start)
    for _ in 0..<bursts {
      benchmark.measurement(lateMetric, await measureOnce(start))
    }
  }

  /// Runs one burst: `start` records the deadline, sends, and returns the
  /// pacer (kept alive until the call); returns how late the call was, in µs.
  static func measureOnce(
    _ start: (_ deadline: (ContinuousClock.Instant) -> Void, _ done: @escaping @Sendable () -> Void) -> AnyObject
  ) async -> Int {
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
