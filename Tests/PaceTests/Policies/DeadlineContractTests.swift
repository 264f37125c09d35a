//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import PaceTesting
import Testing

/// A policy written for the test: a value waits `long`; the value `!` moves the
/// deadline *earlier*, to `short` after it. No built-in policy does that, and
/// the deadline contract allows it: every driver must re-arm for it.
struct HurryStateMachine<Instant: InstantProtocol>: PacingStateMachine, Sendable where Instant: Sendable {
  let long: Instant.Duration
  let short: Instant.Duration
  var pending: String?
  var deadline: Instant?

  init(long: Instant.Duration, short: Instant.Duration) {
    self.long = long
    self.short = short
  }

  var hasPendingValue: Bool { pending != nil }

  mutating func valueReceived(_ value: String, at now: Instant) -> PacingAction<String> {
    pending = value
    let wanted = now.advanced(by: value == "!" ? short : long)
    deadline = deadline.map { Swift.min($0, wanted) } ?? wanted
    return .none
  }

  mutating func timerFired(at now: Instant) -> PacingAction<String> {
    guard let deadline, deadline <= now, let pending else { return .none }
    (self.deadline, self.pending) = (nil, nil)
    return .emit(pending)
  }

  mutating func upstreamFinished(at now: Instant) -> PacingAction<String> {
    defer { (deadline, pending) = (nil, nil) }
    return pending.map { .emitAndFinish($0) } ?? .finish
  }

  mutating func upstreamFailed(at now: Instant) -> PacingAction<String> {
    (deadline, pending) = (nil, nil)
    return .fail
  }
}

@Suite struct DeadlineContractTests {
  static let cases: [(input: String, output: String)] = [
    ("a!", "---!"),  // Armed for frame 10, then moved to frame 3.
    ("a-----", "----------a"),
    ("a--!--b", "-----!----------b"),
    ("ab!|", "---[!|]"),
  ]

  @Test(arguments: cases)
  func aDeadlineMovedEarlier_firesOnTime_inEveryDriver(input: String, output: String) async throws {
    let diagram = try MarbleDiagram(parsing: input)
    let policy = diagram.run(through: HurryStateMachine<VirtualInstant>(long: .frames(10), short: .frames(2)))
    #expect(policy.description == output)

    let machine = HurryStateMachine<DriverInstant>(long: DriverDuration(.frames(10)), short: DriverDuration(.frames(2)))
    let pacerClock = VirtualClock()
    let pacer = await diagram.run(on: pacerClock) { clock, handler in
      Pacer(machine, clock: clock, handler: handler)
    }
    #expect(pacer.description == output, "pacer")
    let sequenceClock = VirtualClock()
    let sequence = await diagram.run(on: sequenceClock) { base, clock in base.paced(by: machine, clock: clock) }
    #expect(sequence.description == output, "sequence")
    #expect(pacerClock.pendingTimerCount == 0)
    #expect(sequenceClock.pendingTimerCount == 0)
  }

  @Test func aDeadlineMovedEarlier_firesOnTime_onTheRealClock() async throws {
    let (values, delivered) = AsyncStream<ContinuousClock.Instant>.makeStream()
    let machine = HurryStateMachine<DriverInstant>(
      long: DriverDuration(.seconds(3_600)), short: DriverDuration(.milliseconds(5)))
    let pacer = Pacer(machine) { (_: String) in delivered.yield(.now) }
    pacer.send("a")  // Armed for an hour…
    let sent = ContinuousClock.now
    pacer.send("!")  // …then for 5 ms.
    let firedAt = await PacerRealClockTests.firstValue(of: values, within: .seconds(30))
    #expect(firedAt.map { $0 - sent >= .milliseconds(5) } ?? false, "fired early, or never")
  }
}
