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
public struct SkipStateMachine<Value, Instant: InstantProtocol>: Sendable {
  /// How many values are still to be dropped.
  public var remaining: Int { left }
  @usableFromInline var left: Int
  @usableFromInline var termination = Termination()

  /// Creates a stage that drops the first `count` values; a negative count
  /// counts as zero.
  ///
  ///     let afterInitial = SkipStateMachine<String, ContinuousClock.Instant>(count: 1)
  public init(count: Int) {
    left = Swift.max(count, 0)
  }

  /// Always `nil`: skip never waits.
  @inlinable public var deadline: Instant? { nil }
}

extension SkipStateMachine: PacingStateMachine {
  /// Drops `value` while values remain to be skipped; lets it through after.
  @inlinable
  public mutating func valueReceived(_ value: Value, at now: Instant) -> PacingAction<Value> {
    guard !termination.isTerminated else { return .none }
    guard left == 0 else {
      left -= 1
      return .none
    }
    return .emit(value)
  }

  /// Nothing to do: skip has no timer.
  @inlinable public mutating func timerFired(at now: Instant) -> PacingAction<Value> { .none }
  /// The finish passes at once.
  @inlinable public mutating func upstreamFinished(at now: Instant) -> PacingAction<Value> { termination.finish() }
  /// The failure passes at once.
  @inlinable public mutating func upstreamFailed(at now: Instant) -> PacingAction<Value> { termination.fail() }
}

extension SkipStateMachine: StorablePacingStateMachine {
  /// Writes how many values are still to be skipped, and whether it ended.
  public func encodeState(to encoder: any Encoder) throws {
    var container = encoder.unkeyedContainer()
    try container.encode(left)
    try container.encode(termination.isTerminated)
  }

  /// Takes what a skip wrote.
  public mutating func decodeState(from decoder: any Decoder) throws {
    var container = try decoder.unkeyedContainer()
    left = try container.decode(Int.self)
    termination.isTerminated = try container.decode(Bool.self)
  }
}
