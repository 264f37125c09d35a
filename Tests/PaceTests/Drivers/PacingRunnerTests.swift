//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import PaceStageText
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

  @Test func aBatch_givesWhatItsValuesGiveOneByOne() {
    let stages = try! PacingStage<String>.parse(["distinct", "take", "2"], durations: .frames)
    var oneByOne = PacingRunner(PacingPipeline<String, VirtualInstant>(stages: stages))
    var batched = oneByOne
    var expected: [String] = []
    var actual: [String] = []
    for value in ["a", "a", "b", "c"] {
      oneByOne.send(value, at: .frame(1)) { expected.append(mark($0, $1)) }
    }
    batched.send(contentsOf: ["a", "a", "b", "c"], at: .frame(1)) { actual.append(mark($0, $1)) }
    #expect(expected == ["a@1", "b@1", "|@1"])
    #expect(actual == expected)
    #expect(batched.isTerminated)
  }

  /// Random chains of Pace's stages, and random inputs: each frame's values
  /// sent as one batch give what they give sent one by one, and so do they
  /// through a pipeline with a stage of one's own (which runs them one by one).
  @Test(arguments: [false, true])
  func batches_giveWhatValuesGiveOneByOne_forRandomChains(withAStageOfOnesOwn: Bool) throws {
    var generator = SeededGenerator(seed: withAStageOfOnesOwn ? 0xBA7C_0002 : 0xBA7C_0001)
    for run in 0..<500 {
      let chain = DriverMarbleTests.randomChain(using: &generator)
      let input = DriverMarbleTests.randomInput(using: &generator)
      var machines = try PacingStage<String>.parse(chain.flatMap(\.arguments), durations: .frames)
        .map { $0.makeStateMachine(for: VirtualInstant.self) }
      if withAStageOfOnesOwn { machines.append(PassThrough()) }
      let oneByOne = Self.log(of: input, through: PacingPipeline(machines: machines), batched: false)
      let batched = Self.log(of: input, through: PacingPipeline(machines: machines), batched: true)
      #expect(batched == oneByOne, "run \(run), \(chain.map(\.description).joined(separator: " ")): \(input)")
    }
  }

  /// What `pipeline` emits for `input`, as a stream loop runs it: each
  /// frame's values (one batch, or one by one), then its ending, then the
  /// timers due through it; at the end, time runs on.
  static func log(
    of input: MarbleDiagram, through pipeline: PacingPipeline<String, VirtualInstant>, batched: Bool
  ) -> [String] {
    var runner = PacingRunner(pipeline)
    var log: [String] = []
    let record = { (event: MarbleEvent, instant: VirtualInstant) in log.append(mark(event, instant)) }
    runner.start(at: .frame(0), record)
    for frame in Set(input.entries.map(\.frame)).sorted() {
      let events = input.events(at: frame)
      let values = events.compactMap { event -> String? in
        if case .value(let value) = event { value } else { nil }
      }
      if batched {
        runner.send(contentsOf: values, at: .frame(frame), record)
      } else {
        for value in values { runner.send(value, at: .frame(frame), record) }
      }
      for event in events {
        switch event {
        case .value: continue
        case .finish: runner.finish(at: .frame(frame), record)
        case .failure: runner.fail(at: .frame(frame), record)
        }
      }
      runner.fireTimers(through: .frame(frame), record)
    }
    runner.fireAllTimers(record)
    return log
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
func mark(_ event: MarbleEvent, _ instant: VirtualInstant) -> String {
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

/// A stage of one's own that lets everything through.
private struct PassThrough: PacingStateMachine, Sendable {
  var deadline: VirtualInstant? { nil }
  mutating func valueReceived(_ value: String, at now: VirtualInstant) -> PacingAction<String> { .emit(value) }
  mutating func timerFired(at now: VirtualInstant) -> PacingAction<String> { .none }
  mutating func upstreamFinished(at now: VirtualInstant) -> PacingAction<String> { .finish }
  mutating func upstreamFailed(at now: VirtualInstant) -> PacingAction<String> { .fail }
}
