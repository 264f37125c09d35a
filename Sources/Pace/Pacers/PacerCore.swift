//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// The driver behind ``Debouncer`` and ``Throttler``: one policy, one lock, at
/// most one armed timer, and in-order delivery on the handler's isolation.
///
/// `send` reads the clock, updates the policy under the lock and returns. It
/// arms a timer only when none is armed: a deadline that moves later is picked
/// up when the armed timer fires early and re-arms. Emissions go to an outbox
/// that one delivery task drains on the handler's isolation, so they arrive in
/// order and the lock is never held while the handler runs.
@usableFromInline
final class PacerCore<Machine: ControllableStateMachine & Sendable>: Sendable
where Machine.Instant == DriverInstant, Machine.Value: Sendable {
  @usableFromInline typealias Value = Machine.Value

  @usableFromInline
  struct State {
    @usableFromInline var machine: Machine
    /// The armed timer, and the generation that tells it from older ones.
    @usableFromInline var timer: ArmedTimer?
    var timerGeneration: UInt64 = 0
    /// Emitted values not yet handed to the handler, oldest first.
    var outbox: [Value] = []
    /// Whether a delivery task is draining the outbox.
    var isDelivering = false
    /// Whether the policy has delivered its finish.
    var isTerminated = false
    /// Whether the pacer was released; nothing is delivered after that.
    @usableFromInline var isShutDown = false
    /// Tasks waiting until everything emitted has been delivered.
    var settledWaiters: [CheckedContinuation<Void, Never>] = []

    init(machine: Machine) {
      self.machine = machine
    }

    var isSettled: Bool { !isDelivering && outbox.isEmpty }
  }

  @usableFromInline let state: LockedState<State>
  @usableFromInline let clock: any DriverClock
  private let handler: @Sendable @isolated(any) (Value) -> Void

  init(machine: Machine, clock: any DriverClock, handler: @escaping @Sendable @isolated(any) (Value) -> Void) {
    self.state = LockedState(State(machine: machine))
    self.clock = clock
    self.handler = handler
  }

  // MARK: Events

  /// The hot path, inlined into the caller so that it is specialised for its
  /// `Value`: read the clock, update the policy under the lock, return. Arming
  /// a timer and delivering happen out of line, and only when needed.
  @inlinable
  func send(_ value: Value) {
    let now = clock.now
    let startsDelivery = state.withLock { state -> Bool in
      guard !state.isShutDown else { return false }
      let action = state.machine.valueReceived(value, at: now)
      if state.timer == nil, state.machine.deadline != nil { armTimerIfNeeded(&state) }
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
    state.withLock { $0.machine.hasPendingValue || !$0.outbox.isEmpty }
  }

  var isFinished: Bool {
    state.withLock { $0.isTerminated && $0.isSettled }
  }

  /// The pacer is gone: drop what is pending, let the timer go, deliver nothing more.
  func shutDown() {
    let (timer, waiters) = state.withLock { state in
      state.isShutDown = true
      state.outbox.removeAll()
      let timer = state.timer
      state.timer = nil
      state.timerGeneration &+= 1
      return (timer, state.isDelivering ? [] : takeWaiters(&state))
    }
    timer?.cancel()
    for waiter in waiters { waiter.resume() }
  }

  /// Returns once every value emitted so far has been handed to the handler.
  func waitUntilDelivered() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let settled = state.withLock { state in
        guard !state.isSettled, !state.isShutDown else { return true }
        state.settledWaiters.append(continuation)
        return false
      }
      if settled { continuation.resume() }
    }
  }

  // MARK: Timer

  /// Arms the timer when the policy waits for a deadline and none is armed.
  @usableFromInline
  func armTimerIfNeeded(_ state: inout State) {
    guard state.timer == nil, let deadline = state.machine.deadline else { return }
    state.timerGeneration &+= 1
    let generation = state.timerGeneration
    state.timer = clock.armTimer(
      at: deadline,
      fire: { [weak self] inTask in
        self?.timerFired(generation: generation, inTask: inTask) ?? (nil, false)
      },
      deliver: { [weak self] in
        await self?.deliver(isolation: nil)
      })
  }

  /// The timer fired; returns the deadline to re-arm it for (or `nil` to let it
  /// go) and whether the timer's task delivers what it emitted. A handler with
  /// no isolation of its own is called from the timer's task directly, which
  /// saves a task and a hop; any other handler gets a delivery task on its actor.
  private func timerFired(generation: UInt64, inTask: Bool) -> (next: DriverInstant?, deliverHere: Bool) {
    let now = clock.now
    let (next, startsDelivery) = state.withLock { state -> (DriverInstant?, Bool) in
      guard generation == state.timerGeneration, !state.isShutDown else {
        return (nil, false)  // A timer that was let go; a newer one (if any) is armed.
      }
      let startsDelivery = enqueue(state.machine.timerFired(at: now), &state)
      guard let deadline = state.machine.deadline else {
        state.timer = nil
        return (nil, startsDelivery)
      }
      return (deadline, startsDelivery)
    }
    guard startsDelivery else { return (next, false) }
    if inTask, handler.isolation == nil { return (next, true) }
    startDelivery()
    return (next, false)
  }

  /// Lets the timer go when the policy no longer waits for anything.
  private func releaseTimerIfIdle(_ state: inout State) -> ArmedTimer? {
    guard state.machine.deadline == nil, let timer = state.timer else { return nil }
    state.timer = nil
    state.timerGeneration &+= 1
    return timer
  }

  /// Runs an event that can emit and can end the policy's wait.
  private func perform(_ event: (inout State, DriverInstant) -> PacingAction<Value>) {
    let now = clock.now
    let (startsDelivery, timer) = state.withLock { state -> (Bool, ArmedTimer?) in
      guard !state.isShutDown else { return (false, nil) }
      let action = event(&state, now)
      armTimerIfNeeded(&state)
      return (enqueue(action, &state), releaseTimerIfIdle(&state))
    }
    timer?.cancel()
    if startsDelivery { startDelivery() }
  }

  // MARK: Delivery

  /// Puts what `action` emits in the outbox; true when a delivery task must start.
  @usableFromInline
  func enqueue(_ action: PacingAction<Value>, _ state: inout State) -> Bool {
    if action.terminates { state.isTerminated = true }
    guard let value = action.value else { return false }
    state.outbox.append(value)
    guard !state.isDelivering else { return false }
    state.isDelivering = true
    return true
  }

  @usableFromInline
  func startDelivery() {
    let isolation = handler.isolation
    Task { [weak self] in
      await self?.deliver(isolation: isolation)
    }
  }

  /// Drains the outbox on the handler's isolation, in order.
  func deliver(isolation: isolated (any Actor)?) async {
    while true {
      let (value, waiters) = state.withLock { state -> (Value?, [CheckedContinuation<Void, Never>]) in
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
