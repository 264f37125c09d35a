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
@usableFromInline
final class PacerCore<Machine: ControllableStateMachine & Sendable>: LockStorage<PacerState<Machine>>, TimerTarget
where Machine.Instant == DriverInstant, Machine.Value: Sendable {
  @usableFromInline typealias Value = Machine.Value
  @usableFromInline typealias State = PacerState<Machine>

  static func make(
    machine: Machine, clock: any DriverClock, handler: @escaping State.Handler
  ) -> PacerCore {
    make(State(machine: machine, clock: clock, handler: handler))
  }

  // MARK: Events

  /// The hot path, inlined into the caller so that it is specialised for its
  /// `Value`: update the policy under the lock, return. Arming a timer and
  /// delivering happen out of line, and only when needed.
  ///
  /// The clock is read under the lock, so the instants a policy sees never go
  /// backwards, whichever threads send.
  @inlinable
  func send(_ value: Value) {
    let startsDelivery = withLock { state -> Bool in
      guard !state.isShutDown else { return false }
      let action = state.machine.valueReceived(value, at: state.clock.now)
      if !state.isTimerArmed, let deadline = state.machine.deadline { armTimer(at: deadline, &state) }
      if case .none = action { return false }
      return enqueue(action, &state)
    }
    if startsDelivery { startDelivery() }
  }

  func flush() {
    perform { state, now in state.machine.flushRequested(at: now) }
  }

  func finish() {
    perform { state, now in state.machine.upstreamFinished(at: now) }
  }

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

  /// Arms (or moves) the timer for `deadline`.
  @usableFromInline
  func armTimer(at deadline: DriverInstant, _ state: inout State) {
    state.isTimerArmed = true
    state.clock.schedule(self, at: deadline)
  }

  private func disarmTimer(_ state: inout State) {
    guard state.isTimerArmed else { return }
    state.isTimerArmed = false
    state.clock.unschedule(self)
  }

  /// The timer fired: run the policy, arm again if it still waits, deliver.
  /// On the timer thread a handler with no isolation of its own is called
  /// right there, which saves a task and a thread hop; any other handler gets
  /// a delivery task on its actor.
  @usableFromInline
  func timerFired(onTimerThread: Bool) {
    let startsDelivery = withLock { state -> Bool in
      // Not armed: a timer let go by `cancel` or `flush` that fired anyway.
      guard state.isTimerArmed, !state.isShutDown else { return false }
      let action = state.machine.timerFired(at: state.clock.now)
      if let deadline = state.machine.deadline {
        state.clock.schedule(self, at: deadline)
      } else {
        state.isTimerArmed = false
      }
      return enqueue(action, &state)
    }
    guard startsDelivery else { return }
    #if os(Linux)
      if onTimerThread, withLock({ $0.handler.isolation == nil }) {
        // Runs synchronously on this thread: the handler has no executor to hop to.
        let core = LockProtected(self)
        Task.immediate { await core.storage.deliver(isolation: nil) }
        return
      }
    #endif
    startDelivery()
  }

  /// Runs an event that can emit, move the deadline or end the policy's wait.
  private func perform(_ event: (inout State, DriverInstant) -> PacingAction<Value>) {
    let startsDelivery = withLock { state -> Bool in
      guard !state.isShutDown else { return false }
      let action = event(&state, state.clock.now)
      if let deadline = state.machine.deadline {
        armTimer(at: deadline, &state)  // The deadline may have moved either way.
      } else {
        disarmTimer(&state)
      }
      return enqueue(action, &state)
    }
    if startsDelivery { startDelivery() }
  }

  // MARK: Delivery

  /// Puts what `action` emits in the outbox; true when a delivery must start.
  @usableFromInline
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
  @usableFromInline
  func startDelivery() {
    let isolation = withLock { $0.handler.isolation }
    let core = LockProtected(self)
    Task {
      await core.storage.deliver(isolation: isolation)
    }
  }

  /// Drains the outbox on the handler's isolation, in order.
  func deliver(isolation: isolated (any Actor)?) async {
    let handler = withLock { $0.handler }
    while true {
      let (value, waiters) = withLock { state -> (Value?, [CheckedContinuation<Void, Never>]) in
        guard !state.isShutDown, !state.outbox.isEmpty else {
          state.isDelivering = false
          state.outbox.removeAll(keepingCapacity: true)
          return (nil, takeWaiters(&state))
        }
        return (state.outbox.removeFirst(), [])
      }
      guard let value else {
        for waiter in waiters { waiter.resume() }
        return
      }
      await handler(value)
    }
  }

  private func takeWaiters(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
    defer { state.settledWaiters = [] }
    return state.settledWaiters
  }
}
