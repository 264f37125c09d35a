//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import PaceTesting
import Testing

/// One stage of a marble case, written as the command line writes it.
enum StageConfiguration: Sendable, CustomStringConvertible {
  case debounce(Int, leading: Bool = false, trailing: Bool = true, maxWait: Int? = nil)
  case throttle(Int, leading: Bool = true, trailing: Bool = true)
  case distinct
  case filter(String)
  case skip(Int)
  case take(Int)

  func makeStateMachine() throws -> any PacingStateMachine<String, VirtualInstant> {
    switch self {
    case .debounce(let interval, let leading, let trailing, let maxWait):
      try DebounceStateMachine(
        interval: .frames(interval), leading: leading, trailing: trailing, maxWait: maxWait.map { .frames($0) })
    case .throttle(let interval, let leading, let trailing):
      try ThrottleStateMachine(interval: .frames(interval), leading: leading, trailing: trailing)
    case .distinct:
      DistinctStateMachine()
    case .filter(let pattern):
      try Self.filter(pattern)
    case .skip(let count):
      try SkipStateMachine(count: count)
    case .take(let count):
      try TakeStateMachine(count: count)
    }
  }

  private static func filter(_ pattern: String) throws -> FilterStateMachine<String, VirtualInstant> {
    let regex = try Regex(pattern)
    return FilterStateMachine { value in value.contains(regex) }
  }

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

  func makePipeline() throws -> PacingPipeline<String, VirtualInstant> {
    PacingPipeline(try stages.map { try $0.makeStateMachine() })
  }

  var testDescription: String {
    "\(stages.map(\.description).joined(separator: " ")): \(input) → \(output)"
  }
}
