//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// A keyed throttle: at most one value per key per interval
/// (``KeyedPacer`` with ``ThrottleStateMachine``).
///
/// ```swift
/// let alerts = KeyedThrottler<Int, String>(for: .seconds(600), edges: .leading) { user, alert in
///   push(alert, to: user)   // at most one per user every ten minutes
/// }
/// alerts.send("disk full", for: userID)
/// ```
public typealias KeyedThrottler<Key: Hashable & Sendable, Value: Sendable> =
  KeyedPacer<Key, ThrottleStateMachine<Value, DriverInstant>>

extension KeyedPacer {
  /// Creates a keyed throttler; the handler runs on the isolation it was
  /// created in.
  ///
  ///     let taps = KeyedThrottler<String, Void>(for: .seconds(1), edges: .leading) { button, _ in print(button) }
  ///
  /// The same as `KeyedPacer(.throttle(for: interval, edges: edges))`, which
  /// also takes an owner or an `async` handler.
  ///
  /// - Parameters:
  ///   - interval: The shortest time between two calls for one key; a negative one counts as zero.
  ///   - edges: Which values the handler gets: leading and trailing by default.
  ///   - clock: The clock that measures time; the continuous clock by default.
  ///   - delivery: Where a timer's emissions run the handler: off the timer's thread by default.
  ///   - handler: Called with the key and each value its policy emits, on the creator's isolation.
  public convenience init<V, C: Clock>(
    for interval: Duration,
    edges: ThrottleEdges = .default,
    clock: C = ContinuousClock(),
    delivery: PacerDelivery = .separate,
    @_inheritActorContext handler: @escaping @Sendable @isolated(any) (Key, V) -> Void
  ) where C.Duration == Duration, Machine == ThrottleStateMachine<V, DriverInstant> {
    self.init(.throttle(for: interval, edges: edges), clock: clock, delivery: delivery, handler: handler)
  }
}
