//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// Drops the first `count` values, then lets every value through.
///
///     input:    abcd|
///     skip 2:   --cd|
///
/// Finish and failure pass at once.
public struct SkipStateMachine<Value, Instant: InstantProtocol> {
  /// How many values are still to be dropped.
  public private(set) var remaining: Int
  @usableFromInline
  var isFinished = false

  /// Creates a stage that drops the first `count` values.
  ///
  /// - Throws: ``PacingConfigurationError/negativeCount(parameter:)`` for a negative count.
  public init(count: Int) throws(PacingConfigurationError) {
    guard count >= 0 else { throw .negativeCount(parameter: "skip count") }
    remaining = count
  }

  /// Always `nil`: skip never waits.
  public var deadline: Instant? { nil }
}

extension SkipStateMachine: PacingStateMachine {
  /// Drops `value` while values remain to be skipped; lets it through after.
  public mutating func valueReceived(_ value: Value, at now: Instant) -> PacingAction<Value> {
    guard !isFinished else { return .none }
    guard remaining == 0 else {
      remaining -= 1
      return .none
    }
    return .emit(value)
  }

  /// Nothing to do: skip has no timer.
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

extension SkipStateMachine: Sendable {}
