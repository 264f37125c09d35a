//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// One event of a paced sequence: a value, its finish or its failure.
///
/// The one vocabulary of the package: what a policy emits (a ``PacingAction``
/// is a list of these), what a ``PacingPipeline`` passes from stage to stage,
/// and what a marble diagram shows (`a`, `|`, `^`).
///
///     let action = PacingAction<String>.emitAndFinish("a")
///     Array(action)  // [.value("a"), .finish]
public enum PacingEvent<Value> {
  /// A value.
  case value(Value)
  /// The sequence finishes: `|` in a diagram.
  case finish
  /// The sequence fails: `^` in a diagram.
  case failure

  /// Whether this event ends the sequence.
  @inlinable
  public var isTerminal: Bool {
    switch self {
    case .finish, .failure: true
    case .value: false
    }
  }

  /// The value this event carries, if any.
  @inlinable
  public var value: Value? {
    if case .value(let value) = self { return value }
    return nil
  }
}

extension PacingEvent: Equatable where Value: Equatable {}
extension PacingEvent: Hashable where Value: Hashable {}
extension PacingEvent: Sendable where Value: Sendable {}
