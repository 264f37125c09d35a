//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// A pacer that calls its handler at most once per interval: with the first
/// value at once, and with the latest value of each interval when it ends.
///
/// ```swift
/// @MainActor final class DownloadModel {
///   var fraction = 0.0
///   private lazy var progress = Throttler<Double>(for: .milliseconds(100), owner: self) { @MainActor model, value in
///     model.fraction = value      // at most ten redraws a second, the last value always shown
///   }
///   func progressChanged(_ value: Double) { progress.send(value) }
/// }
/// ```
///
///     send:     abcdefghijk|        (finish)
///     handler:  a--d--g--j--[k|]    (interval: 3 steps)
///
/// The timing is ``ThrottleStateMachine``'s, exactly; see <doc:Throttle>.
public typealias Throttler<Value: Sendable> = Pacer<ThrottleStateMachine<Value, DriverInstant>>

extension Pacer {
  /// Creates a throttler; the handler runs on the isolation it was created in.
  ///
  ///     let submit = Throttler<Void>(for: .seconds(1), edges: .leading) { print("submitted") }
  ///
  /// - Parameters:
  ///   - interval: The shortest time between two calls; a negative one counts as zero.
  ///   - edges: Which values the handler gets: leading and trailing by default.
  ///   - clock: The clock that measures time; the continuous clock by default.
  ///   - delivery: Where a timer's emissions run the handler: off the timer's thread by default.
  ///   - handler: Called with each value the policy emits, on the creator's isolation.
  public convenience init<V, C: Clock>(
    for interval: Duration,
    edges: ThrottleEdges = .default,
    clock: C = ContinuousClock(),
    delivery: PacerDelivery = .separate,
    @_inheritActorContext handler: @escaping @Sendable @isolated(any) (V) -> Void
  ) where C.Duration == Duration, Machine == ThrottleStateMachine<V, DriverInstant> {
    self.init(
      machine: ThrottleStateMachine(interval: DriverDuration(interval), edges: edges),
      clock: clock, delivery: delivery, handler: .isolated(handler))
  }

  /// Creates a throttler for an actor that owns it: the handler runs on the
  /// actor, with the actor as an `isolated` parameter, which the pacer holds
  /// weakly. No cycle, no `await` in the handler, and once the actor is gone
  /// the handler is not called again.
  ///
  ///     actor Telemetry {
  ///       private lazy var reports = Throttler<Int>(for: .seconds(5), owner: self) { telemetry, count in
  ///         telemetry.upload(count)
  ///       }
  ///     }
  ///
  /// - Parameters:
  ///   - interval: The shortest time between two calls; a negative one counts as zero.
  ///   - edges: Which values the handler gets: leading and trailing by default.
  ///   - clock: The clock that measures time; the continuous clock by default.
  ///   - delivery: Where a timer's emissions run the handler: off the timer's thread by default.
  ///   - owner: The actor the handler runs on; held weakly.
  ///   - handler: Called with the owner and each value the policy emits.
  public convenience init<V, C: Clock, Owner: Actor>(
    for interval: Duration,
    edges: ThrottleEdges = .default,
    clock: C = ContinuousClock(),
    delivery: PacerDelivery = .separate,
    owner: Owner,
    handler: @escaping @Sendable (isolated Owner, V) -> Void
  ) where C.Duration == Duration, Machine == ThrottleStateMachine<V, DriverInstant> {
    self.init(
      machine: ThrottleStateMachine(interval: DriverDuration(interval), edges: edges),
      clock: clock, delivery: delivery, handler: .owned(by: owner, handler))
  }

  /// Creates a throttler for an object that owns it (a main-actor model, any
  /// `Sendable` class): the handler gets the owner, which the pacer holds
  /// weakly, and runs on its own isolation (mark it `@MainActor` for a
  /// main-actor model).
  ///
  ///     @MainActor final class DownloadModel {
  ///       var fraction = 0.0
  ///       private lazy var progress = Throttler<Double>(for: .milliseconds(100), owner: self) {
  ///         @MainActor model, value in model.fraction = value
  ///       }
  ///     }
  ///
  /// - Parameters:
  ///   - interval: The shortest time between two calls; a negative one counts as zero.
  ///   - edges: Which values the handler gets: leading and trailing by default.
  ///   - clock: The clock that measures time; the continuous clock by default.
  ///   - delivery: Where a timer's emissions run the handler: off the timer's thread by default.
  ///   - owner: The object handed to the handler; held weakly.
  ///   - handler: Called with the owner and each value the policy emits, on its isolation.
  public convenience init<V, C: Clock, Owner: AnyObject & Sendable>(
    for interval: Duration,
    edges: ThrottleEdges = .default,
    clock: C = ContinuousClock(),
    delivery: PacerDelivery = .separate,
    owner: Owner,
    @_inheritActorContext handler: @escaping @Sendable @isolated(any) (Owner, V) -> Void
  ) where C.Duration == Duration, Machine == ThrottleStateMachine<V, DriverInstant> {
    self.init(
      machine: ThrottleStateMachine(interval: DriverDuration(interval), edges: edges),
      clock: clock, delivery: delivery, handler: .owned(by: owner, handler))
  }
}
