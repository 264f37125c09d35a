//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import Synchronization
import Testing

// The README's "Chaining stages" policy of your own, as a user writes one:
// generic over its instant like Pace's policies, so a pacer infers the
// driver's instant and the user never names it.

/// Emits the latest value once per interval, while values come.
struct SampleStateMachine<Value: Sendable, Instant: InstantProtocol>: PacingStateMachine, Sendable {
  let interval: Instant.Duration
  private var latest: Value?
  private(set) var deadline: Instant?
  private var finished = false

  init(interval: Instant.Duration) {
    self.interval = interval
  }

  var hasPendingValue: Bool { latest != nil }

  mutating func valueReceived(_ value: Value, at now: Instant) -> PacingAction<Value> {
    guard !finished else { return .none }
    latest = value
    if deadline == nil { deadline = now.advanced(by: interval) }
    return .none
  }

  mutating func timerFired(at now: Instant) -> PacingAction<Value> {
    guard let due = deadline, due <= now else { return .none }  // Early: the driver re-arms.
    deadline = nil
    guard let value = latest else { return .none }
    latest = nil
    return .emit(value)
  }

  mutating func upstreamFinished(at now: Instant) -> PacingAction<Value> {
    guard !finished else { return .none }
    finished = true
    deadline = nil
    defer { latest = nil }
    return latest.map { .emitAndFinish($0) } ?? .finish
  }

  mutating func upstreamFailed(at now: Instant) -> PacingAction<Value> {
    guard !finished else { return .none }
    finished = true
    (deadline, latest) = (nil, nil)
    return .fail
  }
}

@Suite struct ReadmeOwnPolicyTests {
  @Test func ownPolicy_runsInAPacer_withItsDurationsWrittenAsADurationsAre() async {
    let shown = Mutex<[Double]>([])
    let samples = Pacer(SampleStateMachine(interval: .milliseconds(50))) { (reading: Double) in
      shown.withLock { $0.append(reading) }
    }
    for reading in [1.0, 2.0, 3.0] { samples.send(reading) }
    #expect(await eventually { shown.withLock { $0 } == [3.0] })
  }
}
