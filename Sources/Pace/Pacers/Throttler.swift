//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// A pacer that calls its handler at most once per interval: with the first
/// value at once, and with the latest value of each interval when it ends.
///
/// ```swift
/// let submit = Throttler<Void>(for: .seconds(1), edges: .leading) { print("submitted") }
///
/// @MainActor final class DownloadModel {
///   var fraction = 0.0
///   private lazy var progress = Pacer(.throttle(for: .milliseconds(100)), owner: self) {
///     @MainActor (model, value: Double) in
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
  /// The same as `Pacer(.throttle(for: interval, edges: edges))`, which also
  /// takes an owner or an `async` handler.
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
    self.init(machine: .throttle(for: interval, edges: edges), clock: clock, delivery: delivery, handler: .isolated(handler))
  }
}

extension PacingStateMachine {
  /// A throttle for a pacer: emits at most once per interval; see ``ThrottleStateMachine``.
  ///
  ///     let refresh = Pacer(.throttle(for: .seconds(2), edges: .leading), onBusy: .drop) { (page: Int) in
  ///       try? await feed.reload(page)
  ///     }
  ///
  /// - Parameters:
  ///   - interval: The shortest time between two emissions; a negative one counts as zero.
  ///   - edges: Which values are emitted: leading and trailing by default.
  public static func throttle<V>(
    for interval: Duration, edges: ThrottleEdges = .default
  ) -> Self where Self == ThrottleStateMachine<V, DriverInstant> {
    ThrottleStateMachine(interval: DriverDuration(interval), edges: edges)
  }
}
