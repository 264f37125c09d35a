//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import PaceTesting
import Testing

/// Invariants of debounce and throttle over thousands of random diagrams.
///
/// Every value of a random diagram is unique, so an output value names the
/// input it came from. A failure prints the seed, the stage and both diagrams.
@Suite struct PolicyPropertyTests {
  static let diagramCount = 2_400

  /// A random input: 0 to 30 frames; a frame holds nothing, one value, or a
  /// group of 2 or 3; the diagram may end with a finish, a failure, or neither.
  static func randomDiagram(using generator: inout SeededGenerator) -> MarbleDiagram {
    var entries: [MarbleDiagram.Entry] = []
    var next = 0
    let frames = Int.random(in: 0...30, using: &generator)
    let density = Double.random(in: 0.1...0.9, using: &generator)
    for frame in 0..<frames where Double.random(in: 0..<1, using: &generator) < density {
      let count = Int.random(in: 0..<10, using: &generator) == 0 ? Int.random(in: 2...3, using: &generator) : 1
      for _ in 0..<count {
        entries.append(.init(frame: frame, event: .value("v\(next)")))
        next += 1
      }
    }
    switch Int.random(in: 0..<3, using: &generator) {
    case 0: entries.append(.init(frame: frames, event: .finish))
    case 1: entries.append(.init(frame: frames, event: .failure))
    default: break
    }
    return MarbleDiagram(entries: entries)
  }

  static func randomDebounce(using generator: inout SeededGenerator) -> StageConfiguration {
    let interval = Int.random(in: 0...5, using: &generator)
    switch Int.random(in: 0..<5, using: &generator) {
    case 0: return .debounce(interval, leading: true, trailing: false)
    case 1: return .debounce(interval, leading: true)
    case 2: return .debounce(interval, maxWait: Int.random(in: 0...8, using: &generator))
    case 3: return .debounce(interval, leading: true, maxWait: Int.random(in: 0...8, using: &generator))
    default: return .debounce(interval)
    }
  }

  static func randomThrottle(using generator: inout SeededGenerator) -> StageConfiguration {
    let interval = Int.random(in: 0...5, using: &generator)
    switch Int.random(in: 0..<3, using: &generator) {
    case 0: return .throttle(interval, leading: false)
    case 1: return .throttle(interval, trailing: false)
    default: return .throttle(interval)
    }
  }

  /// The input values with their frames, in order.
  static func values(_ diagram: MarbleDiagram) -> [(value: String, frame: Int)] {
    diagram.entries.compactMap { entry in
      if case .value(let value) = entry.event { return (value, entry.frame) }
      return nil
    }
  }

  static func termination(_ diagram: MarbleDiagram) -> MarbleDiagram.Entry? {
    diagram.entries.first { $0.event.isTerminal }
  }

  /// The invariants every timed stage keeps.
  static func checkCommonInvariants(
    input: MarbleDiagram, output: MarbleDiagram, stage: StageConfiguration, trailing: Bool, context: String
  ) {
    let inputValues = values(input)
    let outputValues = values(output)
    let position = Dictionary(uniqueKeysWithValues: inputValues.enumerated().map { ($1.value, $0) })

    // Nothing is emitted that was not input, and the input order is kept.
    let positions = outputValues.map { position[$0.value] }
    #expect(!positions.contains(nil), "emitted a value that was not input [\(context)]")
    let known = positions.compactMap { $0 }
    #expect(zip(known, known.dropFirst()).allSatisfy { $0 < $1 }, "order not kept or value repeated [\(context)]")
    // No value is emitted before it is input.
    for (value, frame) in outputValues {
      if let index = position[value] {
        #expect(frame >= inputValues[index].frame, "\(value) emitted before its input [\(context)]")
      }
    }

    // A finish or failure appears exactly once and last, of the input's kind.
    let terminals = output.entries.filter(\.event.isTerminal)
    if let inputTermination = termination(input) {
      #expect(terminals.count == 1, "termination count \(terminals.count) [\(context)]")
      #expect(output.entries.last?.event == inputTermination.event, "termination not last [\(context)]")
      if let outputTermination = terminals.first {
        #expect(outputTermination.frame >= inputTermination.frame, "\(context)")
        if inputTermination.event == .failure {
          #expect(outputTermination.frame == inputTermination.frame, "failure was delayed [\(context)]")
        }
      }
      // With a finish and a trailing edge, no pending value is lost.
      if inputTermination.event == .finish, trailing, let last = inputValues.last {
        #expect(outputValues.last?.value == last.value, "the last value \(last.value) was lost [\(context)]")
      }
    } else {
      #expect(terminals.isEmpty, "terminated without input termination [\(context)]")
    }
  }

  @Test func debounce_keepsItsInvariants() throws {
    var generator = SeededGenerator(seed: 0x5EED_DEB0)
    for run in 0..<Self.diagramCount {
      let stage = Self.randomDebounce(using: &generator)
      let input = Self.randomDiagram(using: &generator)
      let output = input.run(stages: [try stage.makeStage()])
      let context: String = "run \(run), \(stage): \(input) → \(output)"
      guard case .debounce(let interval, let leading, let trailing, let maxWait) = stage else { continue }
      Self.checkCommonInvariants(input: input, output: output, stage: stage, trailing: trailing, context: context)
      guard trailing, !leading, maxWait == nil else { continue }
      Self.checkTrailingDebounce(input: input, output: output, interval: interval, context: context)
    }
  }

  /// A trailing debounce emits a value input at `t` at `t + n` whenever no
  /// other value arrives up to and including `t + n`, and never emits a value
  /// that a later one superseded within that window.
  static func checkTrailingDebounce(input: MarbleDiagram, output: MarbleDiagram, interval: Int, context: String) {
    let inputValues = values(input)
    let emitted = Dictionary(uniqueKeysWithValues: values(output).map { ($0.value, $0.frame) })
    let terminationFrame = termination(input)?.frame
    for (index, (value, frame)) in inputValues.enumerated() {
      let next = inputValues.dropFirst(index + 1).first
      let superseded = next.map { $0.frame <= frame + interval } ?? false
      if superseded {
        #expect(emitted[value] == nil, "\(value) was superseded but emitted [\(context)]")
        continue
      }
      switch termination(input)?.event {
      case .failure? where terminationFrame! <= frame + interval:
        #expect(emitted[value] == nil, "\(value) pending at the failure was emitted [\(context)]")
      case .finish? where terminationFrame! <= frame + interval:
        #expect(emitted[value] == terminationFrame, "\(value) pending at the finish not flushed with it [\(context)]")
      default:
        #expect(emitted[value] == frame + interval, "\(value) not emitted at \(frame + interval) [\(context)]")
      }
    }
  }

  @Test func throttle_keepsItsInvariants() throws {
    var generator = SeededGenerator(seed: 0x5EED_7407)
    for run in 0..<Self.diagramCount {
      let stage = Self.randomThrottle(using: &generator)
      let input = Self.randomDiagram(using: &generator)
      let output = input.run(stages: [try stage.makeStage()])
      let context: String = "run \(run), \(stage): \(input) → \(output)"
      guard case .throttle(let interval, _, let trailing) = stage else { continue }
      Self.checkCommonInvariants(input: input, output: output, stage: stage, trailing: trailing, context: context)

      // Emissions are at least `interval` frames apart, always.
      let frames = Self.values(output).map(\.frame)
      for (earlier, later) in zip(frames, frames.dropFirst()) {
        #expect(later - earlier >= interval, "emissions at \(earlier) and \(later) [\(context)]")
      }
      // A finish waits at most one window for a pending value.
      if let finish = Self.termination(input), finish.event == .finish, let outputFinish = output.entries.last {
        #expect(outputFinish.frame <= finish.frame + interval, "\(context)")
      }
    }
  }

  @Test func generator_isDeterministic() {
    var first = SeededGenerator(seed: 42)
    var second = SeededGenerator(seed: 42)
    #expect(Self.randomDiagram(using: &first) == Self.randomDiagram(using: &second))
  }
}
