//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// One stage of a chain, written without a clock: an operator and its options.
///
/// Chain stages in code for a closure pacer or an `AsyncSequence`, with the
/// timing contract's semantics (each stage feeds the next at the same instant):
///
///     let stages: [PacingStage<String>] = [.filter { !$0.isEmpty }, .distinct(), .debounce(for: .milliseconds(300))]
///     let search = Pacer(.stages(stages)) { query in print(query) }
///     for await query in queries.paced(by: .distinct(), .debounce(for: .milliseconds(300))) { … }
///
/// Text (a command line, a configuration file) becomes stages through
/// `PacingStage.parse(_:durations:)` of the `PaceStageText` library, the one
/// validating path.
public struct PacingStage<Value>: Sendable {
  @usableFromInline
  package enum Kind: Sendable {
    case debounce(interval: Duration, edges: DebounceEdges<Duration>)
    case throttle(interval: Duration, edges: ThrottleEdges)
    case distinct(@Sendable (Value, Value) -> Bool)
    case filter(@Sendable (Value) -> Bool)
    case skip(Int)
    case take(Int)
  }

  /// What the stage is; the drivers' tests read it.
  package let kind: Kind

  @usableFromInline
  package init(_ kind: Kind) {
    self.kind = kind
  }

  /// Emits once things settle; see ``DebounceStateMachine``.
  ///
  /// - Parameters:
  ///   - interval: The quiet period that ends a burst.
  ///   - edges: Which values of a burst are emitted; the trailing one by default.
  public static func debounce(for interval: Duration, edges: DebounceEdges<Duration> = .default) -> Self {
    Self(.debounce(interval: interval, edges: edges))
  }

  /// Emits at most once per interval; see ``ThrottleStateMachine``.
  ///
  /// - Parameters:
  ///   - interval: The shortest time between two emissions.
  ///   - edges: Which values are emitted; both edges by default.
  public static func throttle(for interval: Duration, edges: ThrottleEdges = .default) -> Self {
    Self(.throttle(interval: interval, edges: edges))
  }

  /// Drops a value equal to the last one let through; see ``DistinctStateMachine``.
  @inlinable
  public static func distinct() -> Self where Value: Equatable & Sendable {
    // Spelled out: a bare `==` here picks `Optional`'s, which wraps (and
    // copies) both values on every comparison.
    Self(.distinct { (last: Value, next: Value) in last == next })
  }

  /// Drops a value equivalent to the last one let through.
  public static func distinct(by areEquivalent: @escaping @Sendable (Value, Value) -> Bool) -> Self {
    Self(.distinct(areEquivalent))
  }

  /// Keeps the values for which `isIncluded` holds; see ``FilterStateMachine``.
  public static func filter(_ isIncluded: @escaping @Sendable (Value) -> Bool) -> Self {
    Self(.filter(isIncluded))
  }

  /// Drops the first `count` values; see ``SkipStateMachine``.
  public static func skip(_ count: Int) -> Self {
    Self(.skip(count))
  }

  /// Lets `count` values through, then finishes; see ``TakeStateMachine``.
  public static func take(_ count: Int) -> Self {
    Self(.take(count))
  }
}

extension PacingStage where Value: Sendable {
  /// The state machine of this stage, for instants whose durations are
  /// `Swift.Duration` (a `ContinuousClock`'s, a virtual clock's).
  ///
  ///     let machine = PacingStage<String>.debounce(for: .seconds(1)).makeStateMachine(for: ContinuousClock.Instant.self)
  public func makeStateMachine<Instant: InstantProtocol>(
    for instant: Instant.Type
  ) -> any PacingStateMachine<Value, Instant> & Sendable where Instant.Duration == Duration {
    makeStateMachine(for: instant) { $0 }
  }

  /// The state machine of this stage, with durations converted by `duration`.
  public func makeStateMachine<Instant: InstantProtocol>(
    for instant: Instant.Type, converting duration: (Duration) -> Instant.Duration
  ) -> any PacingStateMachine<Value, Instant> & Sendable {
    switch kind {
    case .debounce(let interval, let edges):
      DebounceStateMachine(interval: duration(interval), edges: edges.map(duration))
    case .throttle(let interval, let edges):
      ThrottleStateMachine(interval: duration(interval), edges: edges)
    case .distinct(let areEquivalent):
      DistinctStateMachine(by: areEquivalent)
    case .filter(let isIncluded):
      FilterStateMachine(isIncluded)
    case .skip(let count):
      SkipStateMachine(count: count)
    case .take(let count):
      TakeStateMachine(count: count)
    }
  }
}

extension PacingPipeline where Value: Sendable {
  /// A pipeline of `stages`, left to right.
  ///
  ///     let pipeline = PacingPipeline<String, ContinuousClock.Instant>(stages: [.distinct(), .debounce(for: .seconds(1))])
  public init(stages: [PacingStage<Value>]) where Instant.Duration == Duration {
    self.init(machines: stages.map { $0.makeStateMachine(for: Instant.self) })
  }

  /// A pipeline of `stages`, left to right, with durations converted by `duration`.
  public init(stages: [PacingStage<Value>], converting duration: (Duration) -> Instant.Duration) {
    self.init(machines: stages.map { $0.makeStateMachine(for: Instant.self, converting: duration) })
  }
}
