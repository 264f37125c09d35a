//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// One event of a paced sequence: a value, its finish or its failure.
///
/// ``PacingPipeline`` takes and returns events in the order they happen within
/// one instant:
///
///     let out = pipeline.process([.value("a"), .finished], at: now)  // [.value("a"), .finished]
public enum PacingEvent<Value> {
  /// A value.
  case value(Value)
  /// The sequence finished.
  case finished
  /// The sequence failed.
  case failed

  /// Whether this event ends the sequence.
  public var isTerminal: Bool {
    switch self {
    case .finished, .failed: true
    case .value: false
    }
  }
}

extension PacingEvent: Equatable where Value: Equatable {}
extension PacingEvent: Hashable where Value: Hashable {}
extension PacingEvent: Sendable where Value: Sendable {}
