//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// The shell that runs a ``DriverCore`` for ``Pacer``: values arrive by
/// `send`, and leave by one delivery at a time that drains the outbox into the
/// handler, in order, on the handler's isolation.
///
/// `send` takes the lock, reads the clock, updates the policy and returns; it
/// arms a timer only when the deadline moves earlier than the armed one.
/// Every emission — a leading edge at `send`, a trailing one at the timer, a
/// flush — goes through the outbox and the one delivery path, so handler
/// calls keep the order and the spacing the policy gave them, and a `cancel`
/// never takes back a value the policy already emitted.
///
/// The state and the lock are one allocation (this object). Nearly everything
/// is `@inlinable`, so that it is compiled in the user's module, specialised
/// for the pacer's `Value`: a firing wakes a thread whose caches have gone
/// cold, where unspecialised generic code costs tens of microseconds.
@usableFromInline
final class PacerDriver<Machine: PacingStateMachine & Sendable>: LockStorage<PacerState<Machine>>
where Machine.Instant == DriverInstant, Machine.Value: Sendable {
  @usableFromInline typealias Value = Machine.Value
  @usableFromInline typealias State = PacerState<Machine>

  /// A driver whose input starts now: the policy is told so (a `take 0`
  /// finishes here).
  static func make(
    machine: Machine, scheduler: TimerScheduler, handler: PacerHandler<Value>, delivery: PacerDelivery
  ) -> PacerDriver {
    let driver = make(
      State(core: DriverCore(machine: machine), scheduler: scheduler, handler: handler, delivery: delivery))
    driver.perform { state in state.core.machine.started(at: state.scheduler.now) }
    return driver
  }

  /// What the timer calls: a function of the driver that captures nothing,
  /// formed here, in code specialised for `Machine`.
  @inlinable
  static var fire: TimerCallback {
    { driver, onTimerThread in unsafeDowncast(driver, to: PacerDriver.self).timerFired(onTimerThread: onTimerThread) }
  }

  // MARK: Events

  /// The hot path: update the policy under the lock, return. Arming a timer
  /// and delivering happen only when needed.
  ///
  /// The clock is read under the lock, so the instants a policy sees never go
  /// backwards, whichever threads send.
  @inlinable
  func send(_ value: Value) {
    perform { state in state.core.machine.valueReceived(value, at: state.scheduler.now) }
  }

  @inlinable
  func flush() {
    perform { state in state.core.machine.flushRequested(at: state.scheduler.now) }
  }

  @inlinable
  func finish() {
    perform { state in state.core.machine.upstreamFinished(at: state.scheduler.now) }
  }

  /// The input failed: the policy drops what it holds back (for the marble
  /// runner, which runs `^` through a pacer).
  @inlinable
  func fail() {
    perform { state in state.core.machine.upstreamFailed(at: state.scheduler.now) }
  }

  /// Drops what the policy holds back; what it already emitted is delivered.
  @inlinable
  func cancel() {
    perform { state in state.core.machine.cancelled(at: state.scheduler.now) }
  }

  /// Runs one event on the policy under the lock, then starts a delivery
  /// outside it if the outbox received something and none is running.
  @inlinable
  func perform(_ event: (inout State) -> PacingAction<Value>) {
    let delivery = withLock { state -> Delivery? in
      guard !state.core.isShutDown else { return nil }
      let action = event(&state)
      let step = state.core.apply(action)
      state.scheduler.follow(step.timer, owner: self, fire: Self.fire)
      guard step.emitted else { return nil }
      return beginDelivery(&state)
    }
    if let delivery { start(delivery) }
  }

  var isPending: Bool {
    withLock { $0.core.hasPendingValue }
  }

  /// How the policy ended, once everything before it has been delivered.
  var termination: PacingEvent<Value>? {
    withLock { state in
      guard state.core.isTerminated, !state.isDelivering, state.core.outbox.isEmpty else { return nil }
      return state.core.isFailed ? .failure : .finish
    }
  }

  /// The pacer is gone: drop what is pending, let the timer go. Values
  /// already emitted are still delivered: a delivery holds the driver until
  /// its outbox is empty.
  func shutDown() {
    withLock { $0.shutDown(owner: self, keepingEmitted: true) }
  }

  // MARK: Timer

  /// The timer fired: run the policy as of now, follow its deadline, deliver.
  /// On the timer thread, with inline delivery and a handler with no
  /// isolation, the delivery runs right there; otherwise as ``start(_:)`` says.
  @inlinable
  func timerFired(onTimerThread: Bool) -> TimerDelivery? {
    let delivery = withLock { state -> Delivery? in
      guard !state.core.isShutDown else { return nil }
      let step = state.core.timerFired(at: state.scheduler.now)
      state.scheduler.follow(step.timer, owner: self, fire: Self.fire)
      guard step.emitted else { return nil }
      return beginDelivery(&state)
    }
    guard let delivery else { return nil }
    if onTimerThread, delivery.isInline {
      // The timer thread awaits it at once: no task, no hop.
      return Self.deliverWithoutIsolation
    }
    start(delivery)
    return nil
  }

  // MARK: Delivery

  /// A delivery to start once the lock is released.
  @usableFromInline
  struct Delivery {
    @usableFromInline let handler: PacerHandler<Value>
    /// Whether it may run inline on the timer thread: a handler with no
    /// isolation and no owner, on a pacer that opted in.
    @usableFromInline let isInline: Bool

    @inlinable
    init(handler: PacerHandler<Value>, isInline: Bool) {
      self.handler = handler
      self.isInline = isInline
    }
  }

  /// Under the lock: a delivery must start if none runs; `nil` when one runs
  /// already (it will take what was just added). It reads nothing of the
  /// owner: a strong reference to it taken here could be the last one, and
  /// the owner's `deinit` would then release the pacer under its own lock.
  @inlinable
  func beginDelivery(_ state: inout State) -> Delivery? {
    guard !state.isDelivering else { return nil }
    state.isDelivering = true
    state.scheduler.deliveryStarted()
    var isInline = false
    if state.delivery == .inline, case .isolated(let function) = state.handler { isInline = function.isolation == nil }
    return Delivery(handler: state.handler, isInline: isInline)
  }

  /// Starts a task that drains the outbox on the handler's isolation, outside
  /// the lock. It holds the driver until the outbox is empty or the pacer is
  /// released, and an actor owner while it delivers to it. When the owner is
  /// gone, the pacer shuts down: nobody is left to deliver to.
  @inlinable
  func start(_ delivery: Delivery) {
    guard let isolation = delivery.handler.isolation else {
      ownerGone()
      return
    }
    startDelivery(of: self, isolation: isolation, delivery: Self.deliverWithoutIsolation) { driver, isolation in
      await unsafeDowncast(driver, to: PacerDriver.self).deliver(isolation: isolation)
    }
  }

  /// A delivery with no isolation, as a function of the driver that captures
  /// nothing (so handing it over allocates nothing).
  @inlinable
  static var deliverWithoutIsolation: TimerDelivery {
    { driver in await unsafeDowncast(driver, to: PacerDriver.self).deliver(isolation: nil) }
  }

  /// The owner is gone: drop what is pending, let the timer go, end the delivery.
  @usableFromInline
  func ownerGone() {
    let scheduler = withLock { state in
      state.isDelivering = false
      state.shutDown(owner: self)
      return state.scheduler
    }
    scheduler.deliveryFinished()
  }

  /// Drains the outbox on `isolation`, in order, one value at a time.
  @inlinable
  func deliver(isolation: isolated (any Actor)?) async {
    await deliverEach(isolation: isolation) {
      withLock { state -> (value: Value, handler: PacerHandler<Value>)? in
        // After a shut down, only what was emitted before it is left.
        while let event = state.core.takeNext() {
          if case .value(let value) = event { return (value, state.handler) }
        }
        state.isDelivering = false
        state.core.outbox.removeAll(keepingCapacity: true)
        return nil
      }
    } ownerGone: {
      withLock { $0.shutDown(owner: self) }
    }
    withLock { $0.scheduler }.deliveryFinished()
  }
}
