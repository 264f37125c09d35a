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
public struct TakeStateMachine<Value, Instant: InstantProtocol>: Sendable {
  /// How many values may still pass.
  public var remaining: Int { left }
  @usableFromInline var left: Int
  @usableFromInline var termination = Termination()

  /// Creates a stage that lets `count` values through, then finishes; a
  /// negative count counts as zero.
  ///
  ///     let firstThree = TakeStateMachine<String, ContinuousClock.Instant>(count: 3)
  public init(count: Int) {
    left = Swift.max(count, 0)
  }

  /// Always `nil`: take never waits.
  @inlinable public var deadline: Instant? { nil }
}

extension TakeStateMachine: PacingStateMachine {
  /// With nothing to take, the sequence finishes as soon as it starts.
  @inlinable
  public mutating func started(at now: Instant) -> PacingAction<Value> {
    guard left == 0 else { return .none }
    return termination.finish()
  }

  /// Lets `value` through; the last one allowed finishes the sequence with it.
  @inlinable
  public mutating func valueReceived(_ value: Value, at now: Instant) -> PacingAction<Value> {
    guard !termination.isTerminated else { return .none }
    guard left > 0 else {
      // `started(at:)` was skipped by the driver: finish now, without the value.
      return termination.finish()
    }
    left -= 1
    guard left == 0 else { return .emit(value) }
    termination.isTerminated = true
    return .emitAndFinish(value)
  }

  /// Nothing to do: take has no timer.
  @inlinable public mutating func timerFired(at now: Instant) -> PacingAction<Value> { .none }
  /// The finish passes at once.
  @inlinable public mutating func upstreamFinished(at now: Instant) -> PacingAction<Value> { termination.finish() }
  /// The failure passes at once.
  @inlinable public mutating func upstreamFailed(at now: Instant) -> PacingAction<Value> { termination.fail() }
}

extension TakeStateMachine: StorablePacingStateMachine {
  /// Writes how many values are still to be let through, and whether it ended.
  public func encodeState(to encoder: any Encoder) throws {
    var container = encoder.unkeyedContainer()
    try container.encode(left)
    try container.encode(termination.isTerminated)
  }

  /// Takes what a take wrote.
  public mutating func decodeState(from decoder: any Decoder) throws {
    var container = try decoder.unkeyedContainer()
    left = try container.decode(Int.self)
    termination.isTerminated = try container.decode(Bool.self)
  }
}
