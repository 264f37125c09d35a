//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import PaceTesting
import Testing

/// The loop driver's order: timers due before an input fire first, each at
/// its deadline; inputs of an instant come before its timers.
@Suite struct PacingRunnerTests {
  typealias Debounce = DebounceStateMachine<String, VirtualInstant>

  @Test func aTimerDueBeforeAnInput_firesFirst_atItsDeadline() {
    var runner = PacingRunner(Debounce(interval: .frames(3)))
    var log: [String] = []
    let record = { (event: MarbleEvent, instant: VirtualInstant) in log.append(mark(event, instant)) }
    runner.start(at: .frame(0), record)
    runner.send("a", at: .frame(0), record)
    #expect(runner.deadline == .frame(3))
    runner.send("b", at: .frame(10), record)  // The loop slept past the deadline.
    #expect(log == ["a@3"])
    runner.finish(at: .frame(11), record)
    #expect(log == ["a@3", "b@11", "|@11"])
    #expect(runner.isTerminated && runner.deadline == nil)
  }

  @Test func inputsOfAnInstant_comeBeforeItsTimers() {
    var runner = PacingRunner(Debounce(interval: .frames(3)))
    var log: [String] = []
    let record = { (event: MarbleEvent, instant: VirtualInstant) in log.append(mark(event, instant)) }
    runner.send("a", at: .frame(0), record)
    runner.send("b", at: .frame(3), record)  // Due at 3 too: the input wins, as in a marble frame.
    #expect(log.isEmpty)
    runner.fireTimers(through: .frame(5), record)
    #expect(log.isEmpty)
    runner.fireTimers(through: .frame(6), record)
    #expect(log == ["b@6"])
  }

  @Test func fireAllTimers_letsTimeRunOn_untilNothingIsPending() {
    var runner = PacingRunner(ThrottleStateMachine<String, VirtualInstant>(interval: .frames(2)))
    var log: [String] = []
    let record = { (event: MarbleEvent, instant: VirtualInstant) in log.append(mark(event, instant)) }
    for value in ["a", "b", "c"] { runner.send(value, at: .frame(0), record) }
    runner.fireAllTimers(record)
    #expect(log == ["a@0", "c@2"])
    #expect(runner.deadline == nil && !runner.isTerminated)
  }

  @Test func aDeadlineThatDoesNothing_isNotFiredAgainUntilTheNextInput() {
    var runner = PacingRunner(StuckAtNow())
    var fired = 0
    runner.send("a", at: .frame(0)) { _, _ in fired += 1 }
    runner.fireAllTimers { _, _ in fired += 1 }  // Ends although the deadline never moves.
    #expect(fired == 0)
    #expect(runner.deadline == nil)
    runner.send("b", at: .frame(1)) { _, _ in }
    #expect(runner.deadline != nil)
  }

  @Test func afterTheFinish_inputsAreIgnored() {
    var runner = PacingRunner(TakeStateMachine<String, VirtualInstant>(count: 1))
    var log: [String] = []
    let record = { (event: MarbleEvent, instant: VirtualInstant) in log.append(mark(event, instant)) }
    runner.send("a", at: .frame(0), record)
    runner.send("b", at: .frame(1), record)
    runner.finish(at: .frame(2), record)
    #expect(log == ["a@0", "|@0"])
  }
}

/// "a@3" for the value "a" at frame 3; "|" is the finish, "^" the failure.
private func mark(_ event: MarbleEvent, _ instant: VirtualInstant) -> String {
  switch event {
  case .value(let value): "\(value)@\(instant.frame)"
  case .finish: "|@\(instant.frame)"
  case .failure: "^@\(instant.frame)"
  }
}

/// A policy whose deadline is always the last input's instant, and whose
/// timer never acts or moves it.
private struct StuckAtNow: PacingStateMachine {
  var deadline: VirtualInstant?
  mutating func valueReceived(_ value: String, at now: VirtualInstant) -> PacingAction<String> {
    deadline = now
    return .none
  }
  mutating func timerFired(at now: VirtualInstant) -> PacingAction<String> { .none }
  mutating func upstreamFinished(at now: VirtualInstant) -> PacingAction<String> { .finish }
  mutating func upstreamFailed(at now: VirtualInstant) -> PacingAction<String> { .fail }
}
