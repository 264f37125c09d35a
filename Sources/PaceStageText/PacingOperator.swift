//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

public import Pace

/// The operators a stage can be, as text names them: the one registry that
/// the command line, the marble runner and the tests read.
///
/// Each operator has its name, its synopsis (options and their defaults), and
/// is parsed by `PacingStage.parse(_:durations:)`.
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
    ([name] + (argument.map { [$0] } ?? []) + options.map { "[\($0.synopsis)]" }).joined(separator: " ")
  }

  /// The word that follows the operator's name, if any.
  var argument: String? {
    switch self {
    case .debounce, .throttle: "DURATION"
    case .filter: "PATTERN"
    case .skip, .take: "COUNT"
    case .distinct: nil
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

  /// An option of a stage: a flag, and whether it takes a duration.
  struct Option: Equatable {
    var flag: String
    var takesDuration = false

    var synopsis: String { takesDuration ? "\(flag) DURATION" : flag }
  }

  /// The options a stage of this operator takes. Each turns a default of
  /// `DebounceEdges.default` or `ThrottleEdges.default` around, or adds a
  /// maximum wait.
  var options: [Option] {
    switch self {
    case .debounce:
      [Option(flag: "--leading"), Option(flag: "--no-trailing"), Option(flag: "--max-wait", takesDuration: true)]
    case .throttle: [Option(flag: "--no-leading"), Option(flag: "--no-trailing")]
    case .distinct, .filter, .skip, .take: []
    }
  }
}

extension PacingStage {
  /// The operator of this stage.
  ///
  ///     PacingStage<String>.debounce(for: .seconds(1)).operator.name  // "debounce"
  public var `operator`: PacingOperator {
    switch kind {
    case .debounce: .debounce
    case .throttle: .throttle
    case .distinct: .distinct
    case .filter: .filter
    case .skip: .skip
    case .take: .take
    }
  }
}
