//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import PaceStageText
import PaceTesting
import Testing

/// The Swift examples of README.md and of the doc comments, as written there,
/// with their results checked. (The owner examples, on the real clock, are in
/// the `Examples` package, which meets Pace as users do.)
@Suite struct ReadmeExampleTests {
  @Test func usingThePolicies() {
    var search = DebounceStateMachine<String, ContinuousClock.Instant>(interval: .milliseconds(300))
    let start = ContinuousClock.now
    #expect(search.valueReceived("swi", at: start) == .none)
    #expect(search.valueReceived("swift", at: start + .milliseconds(100)) == .none)
    #expect(search.deadline == start + .milliseconds(400))
    #expect(search.timerFired(at: start + .milliseconds(400)) == .emit("swift"))
  }

  @Test func textStagesThatCouldNeverWork_throwAnErrorThatSaysHowToFixThem() {
    #expect {
      try PacingStage<String>.parse(["throttle", "1s", "--no-leading", "--no-trailing"], durations: .withUnits)
    } throws: { error in
      "\(error)" == "word 1: throttle with neither leading nor trailing would never emit: turn one of them on"
    }
  }

  @Test func searchWaitsForTypingToSettle() {
    expectMarbles(
      "abcd----e---f-g-|",
      through: DebounceStateMachine(interval: .frames(3)),
      produce: "------d----e----[g|]")
  }

  @Test func pipelineOfTheDocComment() {
    var pipeline = PacingPipeline<String, ContinuousClock.Instant>(machines: [
      DistinctStateMachine(),
      DebounceStateMachine(interval: .milliseconds(300)),
    ])
    let start = ContinuousClock.now
    #expect(pipeline.started(at: start).isEmpty)
    #expect(pipeline.valueReceived("a", at: start) == .none)
    #expect(pipeline.valueReceived("a", at: start) == .none)
    #expect(pipeline.deadline == start + .milliseconds(300))
    #expect(pipeline.timerFired(at: start + .milliseconds(300)) == .emit("a"))
    #expect(Array(PacingAction<String>.emitAndFinish("a")) == [.value("a"), .finish])
  }

  @Test func expectMarblesExample() {
    expectMarbles(
      "aab-b|", through: PacingPipeline(stages: [.distinct(), .debounce(for: .frames(1))]), produce: "-a-b-|")
  }

  @Test func operatorDiagramsOfTheReadme() {
    typealias I = VirtualInstant
    expectMarbles(
      "a-b-c------d", through: DebounceStateMachine<String, I>(interval: .frames(3), edges: .both()),
      produce: "a------c---d")
    expectMarbles(
      "a-b-c------d", through: DebounceStateMachine<String, I>(interval: .frames(3), edges: .leading),
      produce: "a----------d")
    expectMarbles(
      "abcdefghij|",
      through: DebounceStateMachine<String, I>(interval: .frames(3), edges: .trailing(maxWait: .frames(5))),
      produce: "-----f----[j|]")
    expectMarbles(
      "abcdefghijk|", through: ThrottleStateMachine<String, I>(interval: .frames(3), edges: .leading),
      produce: "a---e---i--|")
    expectMarbles(
      "abcdefghijk|", through: ThrottleStateMachine<String, I>(interval: .frames(3), edges: .trailing),
      produce: "---d--g--j--[k|]")
    expectMarbles(
      "ab-c---d-ef-g---|", through: DebounceStateMachine<String, I>(interval: .frames(3)),
      produce: "------c--------g|")
    expectMarbles(
      "ab-c---d-ef-g---|", through: ThrottleStateMachine<String, I>(interval: .frames(3)),
      produce: "a--c---d--f--g--|")
    expectMarbles(
      "aab-a--bb|", through: PacingPipeline(stages: [.distinct(), .debounce(for: .frames(2))]),
      produce: "------a--[b|]")
  }

  @Test func virtualTimeExample() async throws {
    let output = try await MarbleDiagram(parsing: "abcd----e---f-g-|").run(on: VirtualClock()) { clock, handler in
      Debouncer(for: .frames(3), clock: clock, handler: handler)
    }
    #expect(output.description == "------d----e----[g|]")
  }

  @Test func virtualClockExample() async {
    let clock = VirtualClock()
    let received = Recorder<String>()
    let debouncer = Debouncer<String>(for: .frames(3), clock: clock) { value in
      received.record(value)
    }
    debouncer.send("a")
    clock.advance(to: .frame(3))
    await clock.settle()
    #expect(received.all == ["a"])
  }

  @Test func stagesInCode() async throws {
    let clock = VirtualClock()
    let searched = Recorder<String>()
    let stages: [PacingStage<String>] = [.filter { !$0.isEmpty }, .distinct(), .debounce(for: .milliseconds(300))]
    let search = Pacer(.stages(stages), clock: clock) { query in searched.record(query) }
    for query in ["s", "sw", "sw", "", "swift"] { search.send(query) }
    clock.advance(by: .milliseconds(300))
    await clock.settle()
    #expect(searched.all == ["swift"])
  }
}
