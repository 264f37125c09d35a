//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Benchmark
import Pace
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Keyed pacing's one timer at a million keys: how late a million deadlines
/// spread over ten seconds fire, and how long a million deadlines at one
/// instant take to deliver. The handlers only record; every key must fire
/// exactly once, or the run fails.
func registerKeyedTimerBenchmarks() {
  let keys = 1_000_000

  // MARK: 1,000,000 deadlines spread evenly over 10 s

  // Each key's lateness, in µs, as one sample: `compare` reads p50, p99, max.
  let fired = keyedMetric("keys fired", prefersLarger: true)
  let spreadConfiguration = keyedScaleConfiguration([lateMetric, fired])

  Benchmark("keyed lateness 1M over 10 s | Pace KeyedDebouncer", configuration: spreadConfiguration) { benchmark in
    let interval = Duration.seconds(1)
    let step = 10_000  // ns between keys: 1,000,000 keys over 10 s
    let start = ContinuousClock.now
    let log = DeliveryLog(expected: keys, keepsSamples: true)
    // The value is the key's deadline as the sender knows it: the instant it
    // read just before `send`, plus the interval (ns since `start`). The
    // debouncer reads its clock after that, so its deadline is a little
    // later, never earlier: the lateness recorded is, if anything, too large.
    let keyed = KeyedDebouncer<Int, Int>(.debounce(for: interval)) { key, deadline in
      let now = ContinuousClock.now
      log.record(key: key, at: now, sample: start.duration(to: now).wholeNanoseconds - deadline)
    }
    // Key i is due at start + i × 10 µs. The sender sends every key whose
    // instant has come, then sleeps for a few tens of µs (the batches are
    // then of a few keys): a sender spinning for 10 s would hold one of the
    // two cores the timer and delivery threads run on.
    let intervalNanoseconds = interval.wholeNanoseconds
    var next = 0
    while next < keys {
      let due = min(keys, start.duration(to: .now).wholeNanoseconds / step + 1)
      while next < due {
        keyed.send(start.duration(to: .now).wholeNanoseconds + intervalNanoseconds, for: next)
        next += 1
      }
      if next < keys { usleep(20) }
    }
    let state = log.waitForAll(timeout: .seconds(30), "1M deadlines over 10 s")
    withExtendedLifetime(keyed) {}
    let early = state.samples.count { $0 < 0 }
    precondition(early == 0, "\(early) keys fired before their deadline")
    for late in state.samples { benchmark.measurement(lateMetric, late / 1_000) }
    benchmark.measurement(fired, state.count)
  }

  // MARK: 1,000,000 deadlines at one instant

  // Every key's deadline is the same instant: the first send's plus `delay`
  // (`SharedDeadlineMachine`), long enough for all the sends to be made
  // before it. The timer fires once for all of them; the figure is the time
  // from that deadline to the last handler call.
  let lastAfter = keyedMetric("last delivered after (µs)")
  let firstAfter = keyedMetric("first delivered after (µs)")
  let sending = keyedMetric("sending took (µs)")
  let delivered = keyedMetric("keys delivered", prefersLarger: true)
  let instantConfiguration = keyedScaleConfiguration([lastAfter, firstAfter, sending, delivered])

  Benchmark("keyed due at once 1M | Pace KeyedPacer", configuration: instantConfiguration) { benchmark in
    let delay = Duration.seconds(3)
    let log = DeliveryLog(expected: keys, keepsSamples: false)
    let keyed = KeyedPacer(SharedDeadlineMachine(anchor: DeadlineAnchor(delay: delay))) { (key: Int, _: Int) in
      log.record(key: key, at: .now)
    }
    // Read before the first send, whose `now` fixes the deadline: the
    // deadline taken here is at most that send's few µs earlier than the
    // real one, so the figures are, if anything, too large.
    let start = ContinuousClock.now
    for key in 0..<keys { keyed.send(key, for: key) }
    let sent = ContinuousClock.now
    let deadline = start + delay
    precondition(
      sent < deadline - .milliseconds(100),
      "sending 1M keys took \(start.duration(to: sent)), too close to the \(delay) delay: raise it")
    let state = log.waitForAll(timeout: .seconds(60), "1M deadlines at one instant")
    withExtendedLifetime(keyed) {}
    benchmark.measurement(lastAfter, deadline.duration(to: state.last!).wholeNanoseconds / 1_000)
    benchmark.measurement(firstAfter, deadline.duration(to: state.first!).wholeNanoseconds / 1_000)
    benchmark.measurement(sending, start.duration(to: sent).wholeNanoseconds / 1_000)
    benchmark.measurement(delivered, state.count)
  }
}

/// The instant every key is due at: fixed by the first key's value, at its
/// `now` plus `delay`, and the same for every key after it.
final class DeadlineAnchor: Sendable {
  let delay: DriverDuration
  private let fixed = Mutex<DriverInstant?>(nil)

  init(delay: Duration) {
    self.delay = DriverDuration(delay)
  }

  func deadline(from now: DriverInstant) -> DriverInstant {
    fixed.withLock { fixed in
      if let fixed { return fixed }
      let deadline = now.advanced(by: delay)
      fixed = deadline
      return deadline
    }
  }
}

/// A policy that holds a key's value until the anchor's one instant: a
/// debounce whose deadline is the same for every key, so that a million keys
/// come due at once. It reads the anchor only when it receives a value and
/// keeps the instant, so its `deadline` changes only with its events, as the
/// deadline contract asks.
struct SharedDeadlineMachine: PacingStateMachine, Sendable {
  typealias Value = Int
  typealias Instant = DriverInstant

  let anchor: DeadlineAnchor
  private var pending: Int?
  private(set) var deadline: DriverInstant?

  init(anchor: DeadlineAnchor) {
    self.anchor = anchor
  }

  var hasPendingValue: Bool { pending != nil }
  var isDiscardable: Bool { pending == nil }

  mutating func valueReceived(_ value: Int, at now: DriverInstant) -> PacingAction<Int> {
    pending = value
    deadline = anchor.deadline(from: now)
    return .none
  }

  mutating func timerFired(at now: DriverInstant) -> PacingAction<Int> {
    guard let deadline, !(now < deadline), let value = pending else { return .none }
    (self.deadline, pending) = (nil, nil)
    return .emit(value)
  }

  mutating func upstreamFinished(at now: DriverInstant) -> PacingAction<Int> {
    (deadline, pending) = (nil, nil)
    return .finish
  }

  mutating func upstreamFailed(at now: DriverInstant) -> PacingAction<Int> {
    (deadline, pending) = (nil, nil)
    return .fail
  }

  mutating func flushRequested(at now: DriverInstant) -> PacingAction<Int> {
    guard let value = pending else { return .none }
    (deadline, pending) = (nil, nil)
    return .emit(value)
  }

  mutating func cancelled(at now: DriverInstant) -> PacingAction<Int> {
    (deadline, pending) = (nil, nil)
    return .none
  }
}
