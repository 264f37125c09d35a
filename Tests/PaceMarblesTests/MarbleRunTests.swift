//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import PaceMarbles
import Testing

@Suite struct MarbleRunTests {
  typealias Instant = VirtualInstant

  @Test func run_withNoStages_passesTheInputThrough() throws {
    let input = try MarbleDiagram(parsing: "a-[bc]-'foo'|")
    #expect(input.run(through: PacingPipeline(machines: [])) == input)
  }

  @Test func run_continuesPastTheInput_whileATimerIsPending() throws {
    let output = try MarbleDiagram(parsing: "a").run(
      through: DebounceStateMachine<String, Instant>(interval: .frames(5)))
    #expect(output.description == "-----a")
  }

  @Test func run_stopsAtTheOutputsFinish() throws {
    let output = try MarbleDiagram(parsing: "abcdef").run(through: TakeStateMachine<String, Instant>(count: 2))
    #expect(output.description == "a[b|]")
  }

  @Test func run_startsEveryStage_beforeTheFirstInput() throws {
    let output = try MarbleDiagram(parsing: "a").run(
      through: DistinctStateMachine<String, Instant>(), TakeStateMachine<String, Instant>(count: 0))
    #expect(output.description == "|")
  }

  @Test func run_stageEmissions_reachTheNextStageInTheSameFrame() throws {
    // The debounce emits b at frame 4; the throttle receives it at frame 4 and
    // emits it at once (leading), so nothing is delayed between stages.
    let output = try MarbleDiagram(parsing: "ab").run(
      through: DebounceStateMachine<String, Instant>(interval: .frames(3)),
      ThrottleStateMachine<String, Instant>(interval: .frames(10)))
    #expect(output.description == "----b")
  }

  /// A machine that never acts on its own due timer.
  struct StuckMachine: PacingStateMachine {
    var deadline: VirtualInstant? = .frame(1)
    mutating func valueReceived(_ value: String, at now: VirtualInstant) -> PacingAction<String> { .emit(value) }
    mutating func timerFired(at now: VirtualInstant) -> PacingAction<String> { .none }
    mutating func upstreamFinished(at now: VirtualInstant) -> PacingAction<String> { .finish }
    mutating func upstreamFailed(at now: VirtualInstant) -> PacingAction<String> { .fail }
  }

  @Test func run_withAStuckMachine_ends() throws {
    let output = try MarbleDiagram(parsing: "a--b").run(through: StuckMachine())
    #expect(output.description == "a--b")
  }

  @Test(arguments: [
    ("abab---a|", [PacingStage<String>.debounce(for: .frames(2))], "----ab--[a|]"),  // Each letter its own burst.
    ("aaab|", [.take(1)], "a--b|"),  // A key's own finish does not end the output.
    ("abab|", [.throttle(for: .frames(3))], "ab-a[b|]"),  // The finish waits for the last key's window.
    ("ab^", [.debounce(for: .frames(2))], "--^"),
  ])
  func runKeyed_pacesEachKeyOnItsOwn(input: String, stages: [PacingStage<String>], output: String) throws {
    #expect(try MarbleDiagram(parsing: input).run(stages: stages) { $0 }.description == output)
  }
}
