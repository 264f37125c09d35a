//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// The calls of a ``DebouncedTask`` under one lock: a shell of the driver
/// core, whose policy debounces call numbers, and the runner that starts the
/// latest call's operation (restart: latest wins) and answers its caller.
///
/// The call that waits for the quiet period is kept here; the policy holds
/// only its number, so it knows at once whether the policy kept a new call
/// (it is pending, or was emitted), superseded the one before, or dropped it.
final class DebouncedTaskStorage<Argument: Sendable, Success: Sendable>: CallOwner {
  typealias Operation = @Sendable (Argument) async throws -> Success
  typealias Machine = DebounceStateMachine<UInt64, DriverInstant>

  /// A call that waits for the quiet period.
  struct PendingCall {
    let number: UInt64
    let argument: Argument
    let waiter: Waiter<Success>
  }

  struct State {
    var core: DriverCore<Machine>
    let scheduler: TimerScheduler
    var calls: UInt64 = 0
    var pending: PendingCall?
    var runner = WorkRunner<Argument, Success>(onBusy: .restart)
    var progress = ProgressWaiters<UInt64>()
  }

  private let operation: Operation
  private let state: LockedState<State>

  init<C: Clock>(
    interval: Duration, edges: DebounceEdges<Duration>, clock: C, operation: @escaping Operation
  ) where C.Duration == Duration {
    self.operation = operation
    let machine = Machine(interval: DriverDuration(interval), edges: edges.map(DriverDuration.init))
    state = LockedState(State(core: DriverCore(machine: machine), scheduler: makeTimerScheduler(clock)))
    _ = state.withLock { state in
      state.core.machine.started(at: state.scheduler.now)  // Debounce starts idle: nothing to emit.
    }
  }

  private static var fire: TimerCallback {
    { owner, _ in
      unsafeDowncast(owner, to: DebouncedTaskStorage.self).timerFired()
      return nil
    }
  }

  var isPending: Bool {
    state.withLock { $0.pending != nil }
  }

  var isRunning: Bool {
    state.withLock { $0.runner.isRunning }
  }

  func waitUntil(calls count: Int) async {
    await state.wait(in: \.progress, until: { $0 >= UInt64(count) }, now: \.calls)
  }

  /// A call: the policy keeps it (it waits, or runs at once on the leading
  /// edge), or drops it; a call that waited before it loses.
  func register(_ argument: Argument, waiter: Waiter<Success>) {
    let effects = state.withLock { state -> (superseded: Waiter<Success>?, runner: WorkRunner<Argument, Success>.Effects)? in
      // Checked under the lock that `leave` takes: either it finds this
      // call, or this finds the caller cancelled.
      guard !Task.isCancelled, !state.core.isShutDown else { return nil }
      state.calls &+= 1
      let number = state.calls
      let action = state.core.machine.valueReceived(number, at: state.scheduler.now)
      let superseded = state.pending.take()?.waiter
      // Debounce keeps the latest value: if one is pending, it is this call.
      if state.core.machine.hasPendingValue || action.contains(.value(number)) {
        state.pending = PendingCall(number: number, argument: argument, waiter: waiter)
      }
      var runner = self.apply(action, &state)
      if state.pending?.number != number, !action.contains(.value(number)) {
        runner.dropped = waiter  // Dropped: a burst's later call, with the leading edge only.
      }
      if !state.progress.isEmpty { runner.reached += state.progress.takeReached(state.calls) }
      return (superseded, runner)
    }
    guard let effects else {
      waiter.lose()  // Cancelled before it began, or the task is gone.
      return
    }
    effects.superseded?.lose()
    perform(effects.runner, immediately: true)
  }

  private func timerFired() {
    let effects = state.withLock { state -> WorkRunner<Argument, Success>.Effects in
      guard !state.core.isShutDown else { return .init() }
      let step = state.core.timerFired(at: state.scheduler.now)
      state.scheduler.follow(step.timer, owner: self, fire: Self.fire)
      return step.emitted ? apply(.none, &state) : .init()
    }
    // Not on this thread: the timer's thread must not run the operation.
    perform(effects, immediately: false)
  }

  /// Follows the policy's deadline, and hands every call it emitted to the
  /// runner, which starts it and cancels the one before (restart).
  private func apply(_ action: PacingAction<UInt64>, _ state: inout State) -> WorkRunner<Argument, Success>.Effects {
    state.scheduler.follow(state.core.apply(action).timer, owner: self, fire: Self.fire)
    var effects = WorkRunner<Argument, Success>.Effects()
    while let event = state.core.takeNext() {
      guard case .value(let number) = event, let call = state.pending, call.number == number else { continue }
      state.pending = nil
      let started = state.runner.requested(call.argument, waiter: call.waiter)
      if let lost = started.lost { effects.lost = lost }  // At most one runs: the one it cancels loses.
      effects.start = started.start
    }
    return effects
  }

  private func perform(_ effects: WorkRunner<Argument, Success>.Effects, immediately: Bool) {
    guard !effects.isEmpty else { return }
    state.perform(effects, in: \.runner, immediately: immediately, work: operation)
  }

  /// The task of `caller` was cancelled: its call never runs (a new call
  /// starts a new burst), or its operation is cancelled.
  func leave(_: Argument, caller: CallerIdentity) {
    let effects = state.withLock { state -> (waiting: Waiter<Success>?, runner: WorkRunner<Argument, Success>.Effects) in
      if let pending = state.pending, pending.waiter.caller == caller {
        state.pending = nil
        _ = apply(state.core.machine.cancelled(at: state.scheduler.now), &state)
        return (pending.waiter, .init())
      }
      return (nil, state.runner.leave(caller))
    }
    effects.waiting?.lose()
    perform(effects.runner, immediately: true)
  }

  /// Every call loses; with `shutDown` (the task is gone), for good.
  func cancel(shutDown: Bool = false) {
    let effects = state.withLock { state -> (waiting: Waiter<Success>?, runner: WorkRunner<Argument, Success>.Effects) in
      let waiting = state.pending.take()?.waiter
      if shutDown {
        if state.core.shutDown() == .disarm { state.scheduler.disarm(ObjectIdentifier(self)) }
      } else {
        _ = apply(state.core.machine.cancelled(at: state.scheduler.now), &state)
      }
      return (waiting, state.runner.cancelAll(shutDown: shutDown))
    }
    effects.waiting?.lose()
    perform(effects.runner, immediately: true)
  }
}
