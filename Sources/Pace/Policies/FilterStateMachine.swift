//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// Keeps the values for which a predicate holds.
///
///     input:                 a1b2c|
///     filter isLetter:       a-b-c|
///
/// Finish and failure pass at once. The predicate is the only user code this
/// stage calls, once per value, under its driver's lock: keep it short and
/// free of side effects.
public struct FilterStateMachine<Value, Instant: InstantProtocol>: Sendable {
  @usableFromInline let isIncluded: @Sendable (Value) -> Bool
  @usableFromInline var termination = Termination()

  /// Always: a filter remembers nothing but its end.
  @inlinable
  public var isDiscardable: Bool { !termination.isTerminated }

  /// Creates a filter that keeps the values for which `isIncluded` returns `true`.
  ///
  ///     let errors = FilterStateMachine<String, ContinuousClock.Instant> { $0.contains("ERROR") }
  public init(_ isIncluded: @escaping @Sendable (Value) -> Bool) {
    self.isIncluded = isIncluded
  }

  /// Always `nil`: a filter never waits.
  @inlinable public var deadline: Instant? { nil }
}

extension FilterStateMachine: PacingStateMachine {
  /// Lets `value` through when the predicate holds.
  @inlinable
  public mutating func valueReceived(_ value: Value, at now: Instant) -> PacingAction<Value> {
    guard !termination.isTerminated, isIncluded(value) else { return .none }
    return .emit(value)
  }

  /// Nothing to do: a filter has no timer.
  @inlinable public mutating func timerFired(at now: Instant) -> PacingAction<Value> { .none }
  /// The finish passes at once.
  @inlinable public mutating func upstreamFinished(at now: Instant) -> PacingAction<Value> { termination.finish() }
  /// The failure passes at once.
  @inlinable public mutating func upstreamFailed(at now: Instant) -> PacingAction<Value> { termination.fail() }
}

extension FilterStateMachine: StorablePacingStateMachine {
  /// Writes whether it ended: a filter keeps nothing else (its test is an option).
  public func encodeState(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(termination.isTerminated)
  }

  /// Takes what a filter wrote.
  public mutating func decodeState(from decoder: any Decoder) throws {
    termination.isTerminated = try decoder.singleValueContainer().decode(Bool.self)
  }
}
