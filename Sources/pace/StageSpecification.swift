//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace

/// One stage of a command line, as written: an operator and its options.
enum StageSpecification: Equatable {
  case debounce(interval: Duration, leading: Bool, trailing: Bool, maxWait: Duration?)
  case throttle(interval: Duration, leading: Bool, trailing: Bool)
  case distinct
  case filter(pattern: String)
  case skip(count: Int)
  case take(count: Int)

  /// The operator names, in the order the help lists them.
  static let operatorNames = ["debounce", "throttle", "distinct", "filter", "skip", "take"]

  /// The library's state machine for this stage, on lines of text.
  ///
  /// - Throws: the library's ``PacingConfigurationError`` for options it cannot
  ///   run, or the regular expression's error for a bad filter pattern.
  func makeStateMachine<Instant: InstantProtocol>(
    _ instant: Instant.Type
  ) throws -> any PacingStateMachine<String, Instant> where Instant.Duration == Duration {
    switch self {
    case .debounce(let interval, let leading, let trailing, let maxWait):
      try DebounceStateMachine(interval: interval, leading: leading, trailing: trailing, maxWait: maxWait)
    case .throttle(let interval, let leading, let trailing):
      try ThrottleStateMachine(interval: interval, leading: leading, trailing: trailing)
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

  /// Keeps the lines in which `pattern` finds a match, as `grep` does.
  private static func filter<Instant: InstantProtocol>(
    _ pattern: String
  ) throws -> FilterStateMachine<String, Instant> {
    let regex = try Regex(pattern)
    return FilterStateMachine { line in line.contains(regex) }
  }
}
