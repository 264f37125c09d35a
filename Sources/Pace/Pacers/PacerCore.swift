//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// The driver behind ``Debouncer`` and ``Throttler``: one policy, one lock, at
/// most one armed timer, and in-order delivery on the handler's isolation.
///
/// `send` takes the lock, reads the clock, updates the policy and returns. It
/// arms a timer only when none is armed: a deadline that moves later is picked
/// up when the armed timer fires early and re-arms. Emissions go to an outbox
/// that one delivery drains on the handler's isolation, so they arrive in
/// order and the lock is never held while the handler runs.
///
/// The state and the lock are one allocation (this object). On Linux the
/// continuous clock's timers live in ``TimerService``'s heap, so a pending
/// pacer holds no task either.
///
/// Nearly everything is `@inlinable`, so that it is compiled in the user's
/// module, specialised for the pacer's `Value`. That matters most for the
/// timer: its callback is formed in specialised code, so a firing (which
/// wakes a thread whose caches have gone cold) runs no generic code, whose
/// metadata lookups cost tens of microseconds when cold.
@usableFromInline
final class PacerCore<Machine: ControllableStateMachine & Sendable>: LockStorage<PacerState<Machine>>
where Machine.Instant == DriverInstant, Machine.Value: Sendable {
  @usableFromInline typealias Value = Machine.Value
  @usableFromInline typealias State = PacerState<Machine>

  static func make(
    machine: Machine, clock: any DriverClock, handler: @escaping State.HandlerFunction
  ) -> PacerCore {
    make(State(machine: machine, clock: clock, handler: handler))
  }

  // MARK: Events

  /// The hot path: update the policy under the lock, return. Arming a timer
  /// and delivering happen only when needed.
  ///
  /// The clock is read under the lock, so the instants a policy sees never go
  /// backwards, whichever threads send.
  @inlinable
  func send(_ value: Value) {
    let delivery = withLock { state -> State.Handler? in
      guard !state.isShutDown else { return nil }
      let action = state.machine.valueReceived(value, at: state.clock.now)
      if !state.isTimerArmed, let deadline = state.machine.deadline { armTimer(at: deadline, &state) }
      if case .none = action { return nil }
      return enqueue(action, &state) ? state.handler : nil
    }
    if let handler = delivery { startDelivery(handler) }
  }

  @inlinable
  func flush() {
    perform { state, now in state.machine.flushRequested(at: now) }
  }

  @inlinable
  func finish() {
    perform { state, now in state.machine.upstreamFinished(at: now) }
  }

  @inlinable
  func cancel() {
    perform { state, _ in
      state.outbox.removeAll(keepingCapacity: true)
      return state.machine.cancelled()
    }
  }

  var isPending: Bool {
    withLock { $0.machine.hasPendingValue || !$0.outbox.isEmpty }
  }

  var isFinished: Bool {
    withLock { $0.isTerminated && $0.isSettled }
  }

  /// The pacer is gone: drop what is pending, let the timer go, deliver nothing more.
  func shutDown() {
    let waiters = withLock { state in
      state.isShutDown = true
      state.outbox.removeAll()
      disarmTimer(&state)
      return state.isDelivering ? [] : takeWaiters(&state)
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Returns once every value emitted so far has been handed to the handler.
  func waitUntilDelivered() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let settled = withLock { state in
        guard !state.isSettled, !state.isShutDown else { return true }
        state.settledWaiters.append(continuation)
        return false
      }
      if settled { continuation.resume() }
    }
  }

  // MARK: Timer

  /// Arms (or moves) the timer for `deadline`. The clock holds the core
  /// until it fires or is disarmed; the pacer's `deinit` disarms it.
  @inlinable
  func armTimer(at deadline: DriverInstant, _ state: inout State) {
    state.isTimerArmed = true
    state.clock.schedule(TimerOwner(self), at: deadline) { core, onTimerThread in
      unsafeDowncast(core, to: PacerCore.self).timerFired(onTimerThread: onTimerThread)
    }
  }

  @inlinable
  func disarmTimer(_ state: inout State) {
    guard state.isTimerArmed else { return }
    state.isTimerArmed = false
    state.clock.unschedule(ObjectIdentifier(self))
  }

  /// The timer fired: run the policy, arm again if it still waits, deliver.
  /// On the timer thread a handler with no isolation of its own is called
  /// right there, which saves a task and a thread hop; any other handler gets
  /// a delivery task on its actor.
  @inlinable
  func timerFired(onTimerThread: Bool) -> TimerDelivery? {
    let delivery = withLock { state -> State.Handler? in
      // Not armed: a timer let go by `cancel` or `flush` that fired anyway.
      guard state.isTimerArmed, !state.isShutDown else { return nil }
      let action = state.machine.timerFired(at: state.clock.now)
      if let deadline = state.machine.deadline {
        armTimer(at: deadline, &state)
      } else {
        state.isTimerArmed = false
      }
      return enqueue(action, &state) ? state.handler : nil
    }
    guard let handler = delivery else { return nil }
    if onTimerThread, handler.isolation == nil {
      // The timer thread awaits it at once: the handler has no executor to hop to.
      return { core in await unsafeDowncast(core, to: PacerCore.self).deliver(isolation: nil) }
    }
    startDelivery(handler)
    return nil
  }

  /// Runs an event that can emit, move the deadline or end the policy's wait.
  @inlinable
  func perform(_ event: (inout State, DriverInstant) -> PacingAction<Value>) {
    let delivery = withLock { state -> State.Handler? in
      guard !state.isShutDown else { return nil }
      let action = event(&state, state.clock.now)
      if let deadline = state.machine.deadline {
        armTimer(at: deadline, &state)  // The deadline may have moved either way.
      } else {
        disarmTimer(&state)
      }
      return enqueue(action, &state) ? state.handler : nil
    }
    if let handler = delivery { startDelivery(handler) }
  }

  // MARK: Delivery

  /// Puts what `action` emits in the outbox; true when a delivery must start.
  @inlinable
  func enqueue(_ action: PacingAction<Value>, _ state: inout State) -> Bool {
    if action.terminates { state.isTerminated = true }
    guard let value = action.value else { return false }
    state.outbox.append(value)
    guard !state.isDelivering else { return false }
    state.isDelivering = true
    return true
  }

  /// Starts a task that drains the outbox on the handler's isolation. It
  /// holds the core until the outbox is empty or the pacer is released.
  @inlinable
  func startDelivery(_ handler: State.Handler) {
    let core = LockProtected(self)
    let isolation = handler.isolation
    Task {
      await core.storage.deliver(isolation: isolation)
    }
  }

  /// Drains the outbox on the handler's isolation, in order.
  @inlinable
  func deliver(isolation: isolated (any Actor)?) async {
    while true {
      let (next, waiters) = withLock { state -> ((Value, State.Handler)?, [CheckedContinuation<Void, Never>]) in
        guard !state.isShutDown, !state.outbox.isEmpty else {
          state.isDelivering = false
          state.outbox.removeAll(keepingCapacity: true)
          return (nil, takeWaiters(&state))
        }
        return ((state.outbox.removeFirst(), state.handler), [])
      }
      guard let (value, handler) = next else {
        for waiter in waiters { waiter.resume() }
        return
      }
      await handler.function(value)
    }
  }

  @inlinable
  func takeWaiters(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
    defer { state.settledWaiters = [] }
    return state.settledWaiters
  }
}
