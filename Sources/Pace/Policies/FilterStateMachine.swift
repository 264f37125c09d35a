//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// Keeps the values for which a predicate holds.
///
///     input:                 a1b2c|
///     filter isLetter:       a-b-c|
///
/// Finish and failure pass at once. The predicate is the only user code a
/// stage calls; the timed policies call none.
public struct FilterStateMachine<Value, Instant: InstantProtocol> {
  @usableFromInline
  let isIncluded: (Value) -> Bool
  @usableFromInline
  var isFinished = false

  /// Creates a filter that keeps the values for which `isIncluded` returns `true`.
  public init(_ isIncluded: @escaping (Value) -> Bool) {
    self.isIncluded = isIncluded
  }

  /// Always `nil`: a filter never waits.
  public var deadline: Instant? { nil }
}

extension FilterStateMachine: PacingStateMachine {
  /// Lets `value` through when the predicate holds.
  @inlinable
  public mutating func valueReceived(_ value: Value, at now: Instant) -> PacingAction<Value> {
    guard !isFinished, isIncluded(value) else { return .none }
    return .emit(value)
  }

  /// Nothing to do: a filter has no timer.
  public mutating func timerFired(at now: Instant) -> PacingAction<Value> { .none }

  /// The finish passes at once.
  public mutating func upstreamFinished(at now: Instant) -> PacingAction<Value> {
    defer { isFinished = true }
    return isFinished ? .none : .finish
  }

  /// The failure passes at once.
  public mutating func upstreamFailed(at now: Instant) -> PacingAction<Value> {
    defer { isFinished = true }
    return isFinished ? .none : .fail
  }
}
