//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// Calls a handler at most once per interval: with the first value at once,
/// and with the latest value of each interval when it ends.
///
/// ```swift
/// @MainActor final class ProgressView {
///   var fraction = 0.0
///   private lazy var progress = try? Throttler<Double>(for: .milliseconds(100)) { [weak self] value in
///     self?.fraction = value        // at most ten redraws a second, the last value always shown
///   }
///
///   func progressChanged(_ value: Double) { progress?.send(value) }
/// }
/// ```
///
///     send:     abcdefghijk|        (finish)
///     handler:  a--d--g--j--[k|]    (interval: 3 steps)
///
/// The handler runs on the isolation of the code that created the throttler
/// when that is an actor (the main actor for UI code), or anywhere for a plain
/// `@Sendable` closure. Values reach it in order, one at a time, and at least
/// `interval` apart. (On Linux, a handler with no isolation runs on Pace's
/// timer thread when a window ends, so keep it short; see <doc:ClosurePacers>.)
///
/// ``send(_:)`` can be called from any thread or actor; it never waits for the
/// handler. While the timer is armed it allocates nothing. The throttler keeps
/// at most one timer, and neither the timer nor the handler keeps it alive: when
/// it is released, what is pending is dropped and the handler is not called again.
///
/// The timing is ``ThrottleStateMachine``'s, exactly; see <doc:Throttle>.
public final class Throttler<Value: Sendable>: Sendable {
  @usableFromInline let core: LockProtected<PacerCore<ThrottleStateMachine<Value, DriverInstant>>>

  /// Creates a debouncer.
  ///
  /// - Parameters:
  ///   - interval: The shortest time between two calls of the handler.
  ///   - leading: Call the handler at once with a value that arrives while idle.
  ///   - trailing: Call the handler with an interval's latest value when it ends.
  ///   - clock: The clock that measures the interval.
  ///   - handler: Called with each emitted value, on the creator's isolation.
  /// - Throws: ``PacingConfigurationError`` for options that could never emit
  ///   or a negative interval.
  public init<C: Clock>(
    for interval: Duration,
    leading: Bool = true,
    trailing: Bool = true,
    clock: C,
    @_inheritActorContext handler: @escaping @Sendable @isolated(any) (Value) -> Void
  ) throws(PacingConfigurationError) where C.Duration == Duration {
    let machine = try ThrottleStateMachine<Value, DriverInstant>(
      interval: DriverDuration(interval), leading: leading, trailing: trailing)
    core = LockProtected(PacerCore.make(machine: machine, clock: makeDriverClock(clock), handler: handler))
  }

  /// Creates a debouncer on the continuous clock.
  ///
  /// - Parameters:
  ///   - interval: The shortest time between two calls of the handler.
  ///   - leading: Call the handler at once with a value that arrives while idle.
  ///   - trailing: Call the handler with an interval's latest value when it ends.
  ///   - handler: Called with each emitted value, on the creator's isolation.
  /// - Throws: ``PacingConfigurationError`` for options that could never emit
  ///   or a negative interval.
  public convenience init(
    for interval: Duration,
    leading: Bool = true,
    trailing: Bool = true,
    @_inheritActorContext handler: @escaping @Sendable @isolated(any) (Value) -> Void
  ) throws(PacingConfigurationError) {
    try self.init(for: interval, leading: leading, trailing: trailing, clock: ContinuousClock(), handler: handler)
  }

  deinit {
    core.storage.shutDown()
  }

  /// Sends a value: delivered at once while idle (with `leading`), otherwise
  /// it replaces the pending value of the open interval.
  ///
  ///     send:     abcdefg---
  ///     handler:  a--d--g---        (interval: 3 steps)
  ///
  /// Callable from any thread or actor; never waits for the handler.
  @inlinable
  public func send(_ value: Value) {
    core.storage.send(value)
  }

  /// Drops the pending value. The open interval stays, so the rate still holds.
  ///
  ///     send:     ab---c----
  ///     cancel:   --x-------
  ///     handler:  a----c----        (interval: 3 steps)
  ///
  /// The handler is not called for anything sent before the cancel, unless it
  /// was already running.
  @inlinable
  public func cancel() {
    core.storage.cancel()
  }

  /// Calls the handler now with the pending value, if any; a new interval starts.
  ///
  ///     send:     ab-c------
  ///     flush:    --x-------
  ///     handler:  a-b--c----        (interval: 3 steps)
  @inlinable
  public func flush() {
    core.storage.flush()
  }

  /// Ends the input: the pending value, if any, is delivered when the open
  /// interval ends (the rate holds), and later sends are ignored.
  ///
  ///     send:     ab-c------
  ///     finish:   --x-------
  ///     handler:  a--b------        (interval: 3 steps)
  @inlinable
  public func finish() {
    core.storage.finish()
  }

  /// Whether a value waits to be delivered.
  public var isPending: Bool {
    core.storage.isPending
  }

  /// Whether ``finish()`` was called and everything it delivers has been delivered.
  public var isFinished: Bool {
    core.storage.isFinished
  }

  /// Returns once every value emitted so far has been handed to the handler.
  /// Not API: test support uses it to wait for deliveries without sleeping.
  @_spi(Testing)
  public func _waitUntilDelivered() async {
    await core.storage.waitUntilDelivered()
  }
}

extension Throttler where Value == Void {
  /// Sends an event that carries no value, such as a tap or a change signal.
  @inlinable
  public func send() {
    send(())
  }
}
