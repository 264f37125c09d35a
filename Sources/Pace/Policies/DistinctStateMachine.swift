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
public struct DistinctStateMachine<Value, Instant: InstantProtocol> {
  @usableFromInline let areEquivalent: @Sendable (Value, Value) -> Bool
  @usableFromInline var last: Value?
  @usableFromInline var termination = Termination()

  /// Creates a distinct-until-changed filter that compares values with `==`.
  ///
  ///     let queries = DistinctStateMachine<String, ContinuousClock.Instant>()
  public init() where Value: Equatable & Sendable {
    self.init { (last: Value, next: Value) in last == next }  // Not a bare `==`: that is `Optional`'s.
  }

  /// Creates a distinct-until-changed filter that drops a value when
  /// `areEquivalent` holds for it and the last value let through.
  ///
  ///     let queries = DistinctStateMachine<String, ContinuousClock.Instant> { $0.lowercased() == $1.lowercased() }
  public init(by areEquivalent: @escaping @Sendable (Value, Value) -> Bool) {
    self.areEquivalent = areEquivalent
  }

  /// Always `nil`: distinct never waits.
  @inlinable public var deadline: Instant? { nil }
}

extension DistinctStateMachine: PacingStateMachine {
  /// Lets `value` through unless it equals the last value let through.
  @inlinable
  public mutating func valueReceived(_ value: Value, at now: Instant) -> PacingAction<Value> {
    guard !termination.isTerminated else { return .none }
    if let last, areEquivalent(last, value) { return .none }
    last = value
    return .emit(value)
  }

  /// Nothing to do: distinct has no timer.
  @inlinable public mutating func timerFired(at now: Instant) -> PacingAction<Value> { .none }
  /// The finish passes at once.
  @inlinable public mutating func upstreamFinished(at now: Instant) -> PacingAction<Value> { termination.finish() }
  /// The failure passes at once.
  @inlinable public mutating func upstreamFailed(at now: Instant) -> PacingAction<Value> { termination.fail() }
}

extension DistinctStateMachine: Sendable where Value: Sendable {}

extension DistinctStateMachine: StorablePacingStateMachine where Value: Codable {
  /// Writes the last value let through (its test is an option), and
  /// whether it ended. A `nil` of an optional `Value` reads back as none.
  public func encodeState(to encoder: any Encoder) throws {
    var container = encoder.unkeyedContainer()
    try container.encode(termination.isTerminated)
    if let last { try container.encode(last) }
  }

  /// Takes what a distinct with the same test wrote.
  public mutating func decodeState(from decoder: any Decoder) throws {
    var container = try decoder.unkeyedContainer()
    termination.isTerminated = try container.decode(Bool.self)
    last = container.isAtEnd ? nil : try container.decode(Value.self)
  }
}
