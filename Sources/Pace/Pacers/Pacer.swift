//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// Calls a handler with the values a policy lets through, when it lets them
/// through: the closure driver of every pacing policy. ``Debouncer`` and
/// ``Throttler`` are pacers; so is a chain of stages.
///
/// ```swift
/// let search = Pacer(.stages(.distinct(), .debounce(for: .milliseconds(300)))) { (query: String) in
///   print("search", query)
/// }
/// search.send("swift")
/// ```
///
///     send:     a-b-c-----d----|        (finish)
///     handler:  -------c-----d-|        (debounce, interval: 3 steps)
///
/// ``send(_:)`` can be called from any thread or actor; it never waits for the
/// handler. While the timer is armed it allocates nothing: it reads the clock,
/// updates the policy under a lock and returns. The pacer keeps at most one
/// timer, and neither the timer nor the handler keeps it alive: when it is
/// released, what its policy still holds is dropped, and only values it
/// already emitted (by ``flush()``, a debounce's ``finish()``, a leading edge
/// or a timer that fired) still reach the handler.
///
/// The handler runs on the isolation of the code that created the pacer when
/// that is an actor (the main actor for UI code), in a task; a plain
/// `@Sendable` closure runs, on Linux, on Pace's delivery threads, never on a
/// thread other pacers are waiting for (unless you opt in with
/// ``PacerDelivery/inline``). Values reach it in order, one at a time. An owner — an actor, a main-actor model,
/// any `Sendable` object that keeps the pacer — passes itself as `owner:` and
/// gets itself back in the handler, held weakly, on its own isolation:
///
/// ```swift
/// actor Store {
///   private lazy var saves = Pacer(.debounce(for: .seconds(1)), owner: self) { (store, draft: String) in
///     store.persist(draft)       // on the actor, no `await`; no cycle: the pacer holds `store` weakly
///   }
///   func edited(_ draft: String) { saves.send(draft) }
///   func persist(_ draft: String) { /* … */ }
/// }
/// ```
public final class Pacer<Machine: PacingStateMachine & Sendable>: Sendable
where Machine.Instant == DriverInstant, Machine.Value: Sendable {
  /// The type of the values sent and handled.
  public typealias Value = Machine.Value

  @usableFromInline let driver: LockProtected<PacerDriver<Machine>>

  init<C: Clock>(machine: Machine, clock: C, delivery: PacerDelivery, handler: PacerHandler<Value>)
  where C.Duration == Duration {
    driver = LockProtected(
      PacerDriver.make(machine: machine, scheduler: makeTimerScheduler(clock), handler: handler, delivery: delivery))
  }

  deinit {
    driver.storage.shutDown()
  }

  /// Sends a value to the policy: a debounce starts a burst or replaces its
  /// pending value; a throttle emits it at once while idle.
  ///
  ///     send:     a-b-c-----
  ///     handler:  -------c--        (debounce, interval: 3 steps)
  ///
  /// Callable from any thread or actor; never waits for the handler.
  @inlinable
  public func send(_ value: Value) {
    driver.storage.send(value)
  }

  /// Drops the pending value. A value the policy already emitted (a leading
  /// edge) is still delivered; nothing sent before the cancel and still held
  /// back ever reaches the handler. A throttle keeps its rate.
  ///
  ///     send:     a-b-------
  ///     cancel:   ----x-----
  ///     handler:  ----------        (debounce, interval: 3 steps)
  @inlinable
  public func cancel() {
    driver.storage.cancel()
  }

  /// Calls the handler now with the pending value, if any.
  ///
  ///     send:     a-b-------
  ///     flush:    ---x------
  ///     handler:  ---b------        (debounce, interval: 3 steps)
  @inlinable
  public func flush() {
    driver.storage.flush()
  }

  /// Ends the input: the pending value is delivered by the finish rule (at
  /// once for a debounce, when the window ends for a throttle), and later
  /// sends are ignored.
  ///
  ///     send:     a-b-c-----
  ///     finish:   -----x----
  ///     handler:  -----c----        (debounce, interval: 3 steps)
  @inlinable
  public func finish() {
    driver.storage.finish()
  }

  /// Whether a value waits to be delivered.
  public var isPending: Bool {
    driver.storage.isPending
  }

  /// Whether the policy has finished (after ``finish()``, or a `take` stage's
  /// count) and everything it emitted has been delivered.
  public var isFinished: Bool {
    if case .finish? = driver.storage.termination { return true }
    return false
  }

  /// The input fails: the policy drops what it holds back and ends. For tools
  /// that replay a whole input, such as the marble runner; not API.
  package func fail() {
    driver.storage.fail()
  }

  /// How the policy ended, once everything before has been delivered; for the
  /// marble runner, not API.
  package var termination: PacingEvent<Value>? {
    driver.storage.termination
  }
}

extension Pacer where Value == Void {
  /// Sends an event that carries no value, such as a tap or a change signal.
  @inlinable
  public func send() {
    send(())
  }
}
