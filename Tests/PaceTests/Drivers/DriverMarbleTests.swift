//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import PaceStageText
import PaceTesting
import Testing

/// The marble tables through every driver — the closure pacer and the
/// `AsyncSequence` operator, each on a virtual clock — with the policy's
/// output, case by case; and random chains of stages likewise.
@Suite struct DriverMarbleTests {
  /// The output of `stages` on `input` through the policy runner, a `Pacer`
  /// and a paced sequence; each driver leaves no timer behind.
  static func outputs(
    of input: MarbleDiagram, through stages: [PacingStage<String>]
  ) async -> (policy: MarbleDiagram, pacer: MarbleDiagram, sequence: MarbleDiagram) {
    let policy = input.run(stages: stages)
    let clock = VirtualClock()
    let pacer = await input.run(on: clock) { clock, handler in
      Pacer(.stages(stages), clock: clock, handler: handler)
    }
    #expect(clock.pendingTimerCount == 0, "the pacer left a timer behind")
    let sequenceClock = VirtualClock()
    let sequence = await input.run(on: sequenceClock) { base, clock in
      base.paced(by: stages, clock: clock)
    }
    #expect(sequenceClock.pendingTimerCount == 0, "the sequence left a timer behind")
    return (policy, pacer, sequence)
  }

  @Test(arguments: MarbleTables.timed)
  func debouncerAndThrottler_andTheirSequences_matchThePolicy(_ marbles: MarbleCase) async throws {
    let input = try MarbleDiagram(parsing: marbles.input)
    let expected = try MarbleDiagram(parsing: marbles.output)
    let stage = try marbles.makeStages()[0]
    let clock = VirtualClock()
    let sequenceClock = VirtualClock()
    let (pacer, sequence): (MarbleDiagram, MarbleDiagram)
    switch stage.kind {
    case .debounce(let interval, let edges):
      pacer = await input.run(on: clock) { Debouncer(for: interval, edges: edges, clock: $0, handler: $1) }
      sequence = await input.run(on: sequenceClock) { $0.debounced(for: interval, edges: edges, clock: $1) }
    case .throttle(let interval, let edges):
      pacer = await input.run(on: clock) { Throttler(for: interval, edges: edges, clock: $0, handler: $1) }
      sequence = await input.run(on: sequenceClock) { $0.throttled(for: interval, edges: edges, clock: $1) }
    case .distinct, .filter, .skip, .take:
      Issue.record("not a timed stage")
      return
    }
    #expect(pacer == expected, "pacer: \(pacer)")
    #expect(sequence == expected, "sequence: \(sequence)")
    #expect(clock.pendingTimerCount == 0)
    #expect(sequenceClock.pendingTimerCount == 0)
  }

  @Test(arguments: MarbleTables.all)
  func everyCase_throughAPipelineInEveryDriver_matchesTheTable(_ marbles: MarbleCase) async throws {
    let input = try MarbleDiagram(parsing: marbles.input)
    let expected = try MarbleDiagram(parsing: marbles.output)
    let (policy, pacer, sequence) = await Self.outputs(of: input, through: try marbles.makeStages())
    #expect(policy == expected, "policy: \(policy)")
    #expect(pacer == expected, "pacer: \(pacer)")
    #expect(sequence == expected, "sequence: \(sequence)")
  }

  @Test func multiStageCases_areThere() {
    #expect(MarbleTables.multiStage.count >= 8)
    #expect(MarbleTables.multiStage.filter { $0.stages.count == 3 }.count >= 3)
  }

  static let randomChainCount = 1_000

  /// A chain of two or three random stages, timed and untimed.
  static func randomChain(using generator: inout SeededGenerator) -> [StageConfiguration] {
    (0..<Int.random(in: 2...3, using: &generator)).map { _ in
      switch Int.random(in: 0..<6, using: &generator) {
      case 0: PolicyPropertyTests.randomDebounce(using: &generator)
      case 1: PolicyPropertyTests.randomThrottle(using: &generator)
      case 2: .distinct
      case 3: .filter("[0-9]*[02468]$")
      case 4: .skip(Int.random(in: 0...3, using: &generator))
      default: .take(Int.random(in: 0...6, using: &generator))
      }
    }
  }

  /// Random diagrams whose values repeat, so that `distinct` has work to do.
  static func randomInput(using generator: inout SeededGenerator) -> MarbleDiagram {
    let diagram = PolicyPropertyTests.randomDiagram(using: &generator)
    let modulus = Int.random(in: 2...6, using: &generator)
    return MarbleDiagram(
      entries: diagram.entries.map { entry in
        guard case .value(let value) = entry.event, let number = Int(value.dropFirst()) else { return entry }
        return .init(frame: entry.frame, event: .value("v\(number % modulus)"))
      })
  }

  @Test func randomChains_giveTheSameOutputInEveryDriver() async throws {
    var generator = SeededGenerator(seed: 0xC4A1_0005)
    for run in 0..<Self.randomChainCount {
      let chain = Self.randomChain(using: &generator)
      let input = Self.randomInput(using: &generator)
      let stages = try PacingStage<String>.parse(chain.flatMap(\.arguments), durations: .frames)
      let (policy, pacer, sequence) = await Self.outputs(of: input, through: stages)
      let context = "run \(run), \(chain.map(\.description).joined(separator: " ")): \(input) → \(policy)"
      #expect(pacer == policy, "pacer: \(pacer) [\(context)]")
      #expect(sequence == policy, "sequence: \(sequence) [\(context)]")
    }
  }
}
