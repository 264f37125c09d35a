//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// The operators a stage can be, as text names them: the one registry that
/// the command line, the marble runner and the tests read.
///
/// Each operator has its name, its synopsis (options and their defaults), and
/// is parsed by ``PacingStage/parse(_:durations:)``.
///
///     PacingOperator.allCases.map(\.name)  // ["debounce", "throttle", "distinct", "filter", "skip", "take"]
///     PacingOperator.debounce.synopsis     // "debounce DURATION [--leading] [--no-trailing] [--max-wait DURATION]"
public enum PacingOperator: String, CaseIterable, Sendable {
  /// Emits once things settle.
  case debounce
  /// Emits at most once per interval.
  case throttle
  /// Drops a value equal to the last one let through.
  case distinct
  /// Keeps the values a regular expression matches.
  case filter
  /// Drops the first values.
  case skip
  /// Lets the first values through, then finishes.
  case take

  /// The operator's name, as a command line writes it.
  public var name: String { rawValue }

  /// How a stage of this operator is written, options included.
  public var synopsis: String {
    switch self {
    case .debounce: "debounce DURATION [--leading] [--no-trailing] [--max-wait DURATION]"
    case .throttle: "throttle DURATION [--no-leading] [--no-trailing]"
    case .distinct: "distinct"
    case .filter: "filter PATTERN"
    case .skip: "skip COUNT"
    case .take: "take COUNT"
    }
  }

  /// What the operator does and its defaults, in one line.
  public var summary: String {
    switch self {
    case .debounce: "the last value once DURATION passes with none (trailing by default)"
    case .throttle: "at most one value per DURATION (leading and trailing by default)"
    case .distinct: "drops a value equal to the last one let through"
    case .filter: "keeps values in which the regular expression finds a match, as grep does"
    case .skip: "drops the first COUNT values"
    case .take: "lets COUNT values through, then finishes"
    }
  }

  /// The options a stage of this operator takes, as the synopsis lists them.
  var options: [String] {
    switch self {
    case .debounce: ["--leading", "--no-trailing", "--max-wait DURATION"]
    case .throttle: ["--no-leading", "--no-trailing"]
    case .distinct, .filter, .skip, .take: []
    }
  }
}
