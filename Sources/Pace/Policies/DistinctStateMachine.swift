//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// Drops a value equal to the last value it let through.
///
///     input:     aab-a-bb|
///     distinct:  a-b-a-b-|
///
/// Finish and failure pass at once. It has no timer; it takes an `Instant` type
/// only so that it chains with the timed policies.
public struct DistinctStateMachine<Value: Equatable, Instant: InstantProtocol> {
  @usableFromInline
  var last: Value?
  @usableFromInline
  var isFinished = false

  /// Creates a distinct-until-changed filter.
  public init() {}

  /// Always `nil`: distinct never waits.
  public var deadline: Instant? { nil }
}

extension DistinctStateMachine: PacingStateMachine {
  /// Lets `value` through unless it equals the last value let through.
  @inlinable
  public mutating func valueReceived(_ value: Value, at now: Instant) -> PacingAction<Value> {
    guard !isFinished, last != value else { return .none }
    last = value
    return .emit(value)
  }

  /// Nothing to do: distinct has no timer.
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

extension DistinctStateMachine: Sendable where Value: Sendable {}
