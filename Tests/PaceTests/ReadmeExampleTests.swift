//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import PaceTesting
import Testing

/// The Swift examples of README.md, as written there, with their results checked.
@Suite struct ReadmeExampleTests {
  @Test func usingThePolicies() throws {
    var search = try DebounceStateMachine<String, ContinuousClock.Instant>(interval: .milliseconds(300))
    let start = ContinuousClock.now
    #expect(search.valueReceived("swi", at: start) == .none)
    #expect(search.valueReceived("swift", at: start + .milliseconds(100)) == .none)
    #expect(search.deadline == start + .milliseconds(400))
    #expect(search.timerFired(at: start + .milliseconds(400)) == .emit("swift"))
  }

  @Test func optionsThatCouldNeverWork_throwAnErrorThatSaysHowToFixThem() {
    #expect {
      try ThrottleStateMachine<Int, ContinuousClock.Instant>(interval: .seconds(1), leading: false, trailing: false)
    } throws: { error in
      "\(error)" == "throttle with neither leading nor trailing would never emit: turn one of them on"
    }
  }

  @Test func searchWaitsForTypingToSettle() throws {
    expectMarbles(
      "abcd----e---f-g-|",
      through: try DebounceStateMachine(interval: .frames(3)),
      produce: "------d----e----[g|]")
  }

  @Test func pipelineOfTheDocComment() throws {
    var pipeline = PacingPipeline<String, ContinuousClock.Instant>([
      DistinctStateMachine(),
      try DebounceStateMachine(interval: .milliseconds(300)),
    ])
    let start = ContinuousClock.now
    #expect(pipeline.start(at: start).isEmpty)
    #expect(pipeline.process([.value("a"), .value("a")], at: start).isEmpty)
    #expect(pipeline.deadline == start + .milliseconds(300))
    #expect(pipeline.process([], at: start + .milliseconds(300)) == [.value("a")])
  }

  @Test func operatorDiagramsOfTheReadme() throws {
    typealias I = VirtualInstant
    expectMarbles(
      "a-b-c------d", through: try DebounceStateMachine<String, I>(interval: .frames(3), leading: true),
      produce: "a------c---d")
    expectMarbles(
      "abcdefghij|", through: try DebounceStateMachine<String, I>(interval: .frames(3), maxWait: .frames(5)),
      produce: "-----f----[j|]")
    expectMarbles(
      "abcdefghijk|", through: try ThrottleStateMachine<String, I>(interval: .frames(3), trailing: false),
      produce: "a---e---i--|")
    expectMarbles(
      "abcdefghijk|", through: try ThrottleStateMachine<String, I>(interval: .frames(3), leading: false),
      produce: "---d--g--j--[k|]")
    expectMarbles(
      "ab-c---d-ef-g---|", through: try DebounceStateMachine<String, I>(interval: .frames(3)),
      produce: "------c--------g|")
    expectMarbles(
      "ab-c---d-ef-g---|", through: try ThrottleStateMachine<String, I>(interval: .frames(3)),
      produce: "a--c---d--f--g--|")
  }

  @Test func virtualTimeExample() async throws {
    let output = try await MarbleDiagram(parsing: "abcd----e---f-g-|").run(on: VirtualClock()) { clock, handler in
      try Debouncer(for: .frames(3), clock: clock, handler: handler)
    }
    #expect(output.description == "------d----e----[g|]")
  }
}
