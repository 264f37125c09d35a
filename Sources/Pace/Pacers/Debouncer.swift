//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// Calls a handler once things settle: with the last value of each burst of
/// ``send(_:)`` calls, optionally also with the first, and at least every
/// `maxWait` while a burst goes on.
///
/// ```swift
/// @MainActor final class SearchModel {
///   var query = ""
///   private var search: Debouncer<String>?
///
///   init() {
///     search = try? Debouncer(for: .milliseconds(300)) { [weak self] text in
///       self?.query = text          // runs on the main actor, where the model was created
///     }
///   }
///
///   func textChanged(_ text: String) { search?.send(text) }
/// }
/// ```
///
///     send:     a-b-c-----d----|        (finish)
///     handler:  -------c-----d-|        (interval: 3 steps)
///
/// The handler runs on the isolation of the code that created the debouncer
/// when that is an actor (the main actor for UI code), or anywhere for a plain
/// `@Sendable` closure. Values reach it in order, one at a time. (On Linux, a
/// handler with no isolation runs on Pace's timer thread when a deadline
/// passes, so keep it short; see <doc:ClosurePacers>.)
///
/// ``send(_:)`` can be called from any thread or actor; it never waits for the
/// handler. While the timer is armed it allocates nothing: it reads the clock,
/// updates the policy under a lock and returns. The debouncer keeps at most one
/// timer, and neither the timer nor the handler keeps it alive: when it is
/// released, what is pending is dropped and the handler is not called again.
///
/// The timing is ``DebounceStateMachine``'s, exactly; see <doc:Debounce>.
public final class Debouncer<Value: Sendable>: Sendable {
  @usableFromInline let core: LockProtected<PacerCore<DebounceStateMachine<Value, DriverInstant>>>

  /// Creates a debouncer.
  ///
  /// - Parameters:
  ///   - interval: The quiet period that ends a burst.
  ///   - leading: Call the handler at once with the value that starts a burst.
  ///   - trailing: Call the handler with the latest value when the burst ends.
  ///   - maxWait: The longest a value waits while a burst goes on, if any.
  ///   - clock: The clock that measures the interval.
  ///   - handler: Called with each emitted value, on the creator's isolation.
  /// - Throws: ``PacingConfigurationError`` for options that could never emit
  ///   or a negative duration.
  public init<C: Clock>(
    for interval: Duration,
    leading: Bool = false,
    trailing: Bool = true,
    maxWait: Duration? = nil,
    clock: C,
    @_inheritActorContext handler: @escaping @Sendable @isolated(any) (Value) -> Void
  ) throws(PacingConfigurationError) where C.Duration == Duration {
    let machine = try DebounceStateMachine<Value, DriverInstant>(
      interval: DriverDuration(interval), leading: leading, trailing: trailing,
      maxWait: maxWait.map(DriverDuration.init))
    core = LockProtected(PacerCore.make(machine: machine, clock: makeDriverClock(clock), handler: handler))
  }

  /// Creates a debouncer on the continuous clock.
  ///
  /// - Parameters:
  ///   - interval: The quiet period that ends a burst.
  ///   - leading: Call the handler at once with the value that starts a burst.
  ///   - trailing: Call the handler with the latest value when the burst ends.
  ///   - maxWait: The longest a value waits while a burst goes on, if any.
  ///   - handler: Called with each emitted value, on the creator's isolation.
  /// - Throws: ``PacingConfigurationError`` for options that could never emit
  ///   or a negative duration.
  public convenience init(
    for interval: Duration,
    leading: Bool = false,
    trailing: Bool = true,
    maxWait: Duration? = nil,
    @_inheritActorContext handler: @escaping @Sendable @isolated(any) (Value) -> Void
  ) throws(PacingConfigurationError) {
    try self.init(
      for: interval, leading: leading, trailing: trailing, maxWait: maxWait, clock: ContinuousClock(),
      handler: handler)
  }

  deinit {
    core.storage.shutDown()
  }

  /// Sends a value: it starts a burst or replaces the burst's pending value.
  ///
  ///     send:     a-b-c-----
  ///     handler:  -------c--        (interval: 3 steps)
  ///
  /// Callable from any thread or actor; never waits for the handler.
  @inlinable
  public func send(_ value: Value) {
    core.storage.send(value)
  }

  /// Drops the pending value and ends the burst. The handler is not called for
  /// anything sent before the cancel, unless it was already running.
  ///
  ///     send:     a-b-------
  ///     cancel:   ----x-----
  ///     handler:  ----------        (interval: 3 steps)
  @inlinable
  public func cancel() {
    core.storage.cancel()
  }

  /// Calls the handler now with the pending value, if any, and ends the burst.
  ///
  ///     send:     a-b-------
  ///     flush:    ---x------
  ///     handler:  ---b------        (interval: 3 steps)
  @inlinable
  public func flush() {
    core.storage.flush()
  }

  /// Ends the input: the pending value, if any, is delivered at once, and later
  /// sends are ignored.
  ///
  ///     send:     a-b-c-----
  ///     finish:   -----x----
  ///     handler:  -----c----        (interval: 3 steps)
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

extension Debouncer where Value == Void {
  /// Sends an event that carries no value, such as a tap or a change signal.
  @inlinable
  public func send() {
    send(())
  }
}
