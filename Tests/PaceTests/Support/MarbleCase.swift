//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import PaceStageText
import PaceTesting
import Testing

/// One stage of a marble case, written as the command line writes it. Its
/// machine comes from the library's one parser (``PacingStage/parse(_:durations:)``),
/// so the tables, `pace marble` and the library share operators and defaults.
enum StageConfiguration: Sendable, CustomStringConvertible {
  case debounce(
    Int, leading: Bool = DebounceEdges<Duration>.default.leading,
    trailing: Bool = DebounceEdges<Duration>.default.trailing, maxWait: Int? = nil)
  case throttle(Int, leading: Bool = ThrottleEdges.default.leading, trailing: Bool = ThrottleEdges.default.trailing)
  case distinct
  case filter(String)
  case skip(Int)
  case take(Int)

  /// The stage as `pace marble` takes it.
  var arguments: [String] {
    switch self {
    case .debounce(let interval, let leading, let trailing, let maxWait):
      ["debounce", "\(interval)"] + (leading ? ["--leading"] : []) + (trailing ? [] : ["--no-trailing"])
        + (maxWait.map { ["--max-wait", "\($0)"] } ?? [])
    case .throttle(let interval, let leading, let trailing):
      ["throttle", "\(interval)"] + (leading ? [] : ["--no-leading"]) + (trailing ? [] : ["--no-trailing"])
    case .distinct: ["distinct"]
    case .filter(let pattern): ["filter", pattern]
    case .skip(let count): ["skip", "\(count)"]
    case .take(let count): ["take", "\(count)"]
    }
  }

  var description: String { arguments.joined(separator: " ") }

  /// The stage, as the library parses its words.
  func makeStage() throws -> PacingStage<String> {
    try PacingStage<String>.parse(arguments, durations: .frames)[0]
  }
}

/// An input diagram, the stages it runs through, and the output they must produce.
struct MarbleCase: Sendable, CustomTestStringConvertible {
  var stages: [StageConfiguration]
  var input: String
  var output: String

  init(_ stages: StageConfiguration..., input: String, output: String) {
    self.stages = stages
    self.input = input
    self.output = output
  }

  /// The stages, as the library parses the case's words.
  func makeStages() throws -> [PacingStage<String>] {
    try PacingStage<String>.parse(stages.flatMap(\.arguments), durations: .frames)
  }

  func makePipeline() throws -> PacingPipeline<String, VirtualInstant> {
    PacingPipeline(stages: try makeStages())
  }

  var testDescription: String {
    "\(stages.map(\.description).joined(separator: " ")): \(input) → \(output)"
  }
}
