//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// Lets `count` values through and finishes at the `count`-th.
///
///     input:    abcd|
///     take 2:   a[b|]
///
/// `take 0` finishes when the input starts, before any value. Finish and
/// failure that arrive before the count is reached pass at once.
public struct TakeStateMachine<Value, Instant: InstantProtocol> {
  /// How many values may still pass.
  public private(set) var remaining: Int
  @usableFromInline
  var isFinished = false

  /// Creates a stage that lets `count` values through, then finishes.
  ///
  /// - Throws: ``PacingConfigurationError/negativeCount(parameter:)`` for a negative count.
  public init(count: Int) throws(PacingConfigurationError) {
    guard count >= 0 else { throw .negativeCount(parameter: "take count") }
    remaining = count
  }

  /// Always `nil`: take never waits.
  public var deadline: Instant? { nil }
}

extension TakeStateMachine: PacingStateMachine {
  /// With nothing to take, the sequence finishes as soon as it starts.
  public mutating func started(at now: Instant) -> PacingAction<Value> {
    guard !isFinished, remaining == 0 else { return .none }
    isFinished = true
    return .finish
  }

  /// Lets `value` through; the last one allowed finishes the sequence with it.
  public mutating func valueReceived(_ value: Value, at now: Instant) -> PacingAction<Value> {
    guard !isFinished else { return .none }
    guard remaining > 0 else {
      // `started(at:)` was skipped by the driver: finish now, without the value.
      isFinished = true
      return .finish
    }
    remaining -= 1
    if remaining == 0 {
      isFinished = true
      return .emitAndFinish(value)
    }
    return .emit(value)
  }

  /// Nothing to do: take has no timer.
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

extension TakeStateMachine: Sendable {}
