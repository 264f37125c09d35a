//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// Runs requests one at a time as the on-busy policy says: the bookkeeping
/// that pacers with `async` handlers and ``DebouncedTask`` share. They differ
/// only in whether a caller awaits the result: a request may carry a
/// ``Waiter``, which is answered with the result, or loses when its request
/// is dropped, superseded or cancelled.
///
/// A value kept under its owner's lock. Each event returns ``Effects``, which
/// the owner performs after the lock with `LockedState.perform(_:in:…)`.
package struct WorkRunner<Request: Sendable, Success: Sendable>: Sendable {
  /// A request and the caller that awaits it, if any.
  package struct Queued: Sendable {
    let request: Request
    let waiter: Waiter<Success>?
  }

  /// What to do after the lock.
  package struct Effects: Sendable {
    /// An execution that lost (restarted away, cancelled): its waiters get
    /// `CancellationError`, its task is cancelled.
    package var lost: Execution<Success>?
    /// A request that will never run (dropped, superseded while it waited).
    package var dropped: Waiter<Success>?
    /// The request to start now, as `generation`.
    package var start: (request: Request, generation: UInt64)?
    /// Tests whose awaited progress was reached.
    package var reached: [CheckedContinuation<Void, Never>] = []

    package init() {}

    /// Whether there is nothing to do.
    package var isEmpty: Bool { lost == nil && dropped == nil && start == nil && reached.isEmpty }
  }

  var policy: OnBusyStateMachine<Queued>
  /// The running execution, from its start until it ends or loses.
  package var current: Execution<Success>?
  var isShutDown = false
  /// Executions that ended (returned, threw, or ended after a cancel).
  var ended = 0
  var progress = ProgressWaiters<Int>()

  package init(onBusy: OnBusy) {
    policy = OnBusyStateMachine(onBusy)
  }

  /// A runner whose generations follow `generation`, so that the late end
  /// of an earlier runner's lost task is never taken for one of its own.
  package init(onBusy: OnBusy, generationsAfter generation: UInt64) {
    policy = OnBusyStateMachine(onBusy, generationsAfter: generation)
  }

  /// Whether work runs.
  package var isRunning: Bool { current != nil }

  /// Whether nothing runs, waits or awaits progress: a new runner, started
  /// after ``latestGeneration``, would behave the same.
  package var isIdle: Bool { current == nil && !policy.hasWaitingRequest && progress.isEmpty && !isShutDown }

  /// The generation of the latest work started.
  package var latestGeneration: UInt64 { policy.latestGeneration }

  /// A request arrives; `waiter`, if any, awaits its result.
  package mutating func requested(_ request: Request, waiter: Waiter<Success>? = nil) -> Effects {
    var effects = Effects()
    guard !isShutDown else {
      effects.dropped = waiter
      return effects
    }
    switch policy.workRequested(Queued(request: request, waiter: waiter)) {
    case .start(let queued, let generation):
      // Nothing ran.
      start(queued, generation, &effects)
    case .restart(let cancelling, let queued, let generation):
      // Latest wins: the running execution loses, the new one starts now.
      effects.lost = current.take(generation: cancelling)
      start(queued, generation, &effects)
    case .wait(let superseding):
      // It waits for the running work; the one that waited before never runs.
      effects.dropped = superseding?.waiter
    case .drop(let queued):
      // The running work goes on; this one never runs.
      effects.dropped = queued.waiter
    case .none, .cancelAll:
      preconditionFailure("a request starts, waits or is dropped")
    }
    return effects
  }

  /// The execution of `generation` ended with `result`: its waiters are
  /// answered, and a request that waited starts.
  package mutating func finished(
    _ generation: UInt64, with result: Result<Success, any Error>
  ) -> (answered: Execution<Success>?, next: Effects) {
    var effects = Effects()
    ended += 1
    let answered = current.take(generation: generation)
    if !isShutDown, case .start(let queued, let next) = policy.workFinished(generation: generation) {
      start(queued, next, &effects)
    }
    if !progress.isEmpty { effects.reached = progress.takeReached(ended) }
    return (answered, effects)
  }

  /// A caller that awaits a request was cancelled: it loses at once. A
  /// request that waited (queue) never runs; a running execution is
  /// cancelled, and a request that waited starts.
  package mutating func leave(_ caller: CallerIdentity) -> Effects {
    var effects = Effects()
    if let waiting = policy.waitingWithdrawn(where: { $0.waiter?.caller == caller }) {
      effects.dropped = waiting.waiter
      return effects
    }
    guard let running = current, running.waiters.contains(caller) else { return effects }  // Answered already.
    effects.lost = current.take()
    if case .start(let queued, let next) = policy.workFinished(generation: running.generation) {
      start(queued, next, &effects)
    }
    return effects
  }

  /// Everything stops: the running execution loses, a waiting request
  /// never runs. With `shutDown`, later requests are dropped too.
  package mutating func cancelAll(shutDown: Bool = false) -> Effects {
    var effects = Effects()
    isShutDown = isShutDown || shutDown
    if case .cancelAll(_, let superseding) = policy.cancelled() {
      effects.lost = current.take()
      effects.dropped = superseding?.waiter
    }
    return effects
  }

  private mutating func start(_ queued: Queued, _ generation: UInt64, _ effects: inout Effects) {
    current = Execution(generation: generation, waiter: queued.waiter)
    effects.start = (queued.request, generation)
  }
}

extension LockedState {
  /// Performs what a ``WorkRunner`` kept at `runner` answered: answers the
  /// losers, and starts the request to start, whose end is reported back to
  /// the runner, which may start the next.
  ///
  /// - Parameters:
  ///   - immediately: Start on this thread (`Task.immediate`), and cancel a
  ///     lost task here, where the platform allows; false on a timer's
  ///     thread, which runs no user code.
  ///   - work: Runs one request.
  package func perform<Request, Success>(
    _ effects: WorkRunner<Request, Success>.Effects,
    in runner: any WritableKeyPath<State, WorkRunner<Request, Success>> & Sendable,
    immediately: Bool,
    work: @escaping @Sendable (Request) async throws -> Success
  ) {
    effects.lost?.waiters.lose()
    effects.dropped?.lose()
    for reached in effects.reached { reached.resume() }
    // Cancelling a task runs its cancellation handlers, user code, on this
    // thread: not on a timer's thread, where the task that replaces it
    // cancels it as it begins.
    let cancelling = effects.lost?.task
    if immediately { cancelling?.cancel() }
    guard let (request, generation) = effects.start else {
      if !immediately, let cancelling { Task { cancelling.cancel() } }
      return
    }
    startTask(immediately: immediately) {
      if !immediately { cancelling?.cancel() }
      let result: Result<Success, any Error>
      do {
        result = .success(try await work(request))
      } catch {
        result = .failure(error)
      }
      let (answered, next) = self.withLock { $0[keyPath: runner].finished(generation, with: result) }
      answered?.finish(with: result)
      self.perform(next, in: runner, immediately: true, work: work)
    } attach: { state, task in
      state[keyPath: runner].current.attach(task, to: generation)
    }
  }
}

extension LockedState {
  /// Returns once `count` executions of the runner ended; for tests.
  package func waitUntil<Request, Success>(ended count: Int) async where State == WorkRunner<Request, Success> {
    await wait(in: \.progress, until: { $0 >= count }, now: \.ended)
  }
}
