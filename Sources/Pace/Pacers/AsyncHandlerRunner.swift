//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// Runs a pacer's `async` handler for each value the policy emits, as the
/// pacer's ``OnBusy`` answer says when the handler still runs for an earlier
/// value: ``OnBusyStateMachine`` decides, this does.
///
/// The pacer's own handler only hands values in (it never waits), so a
/// slow handler never holds back the policy's timing; each handler call runs
/// in a task of its own, on the handler's isolation.
package final class AsyncHandlerRunner<Value: Sendable>: Sendable {
  /// Calls the handler with a value; `false` when its owner is gone.
  package typealias Call = @Sendable (Value) async -> Bool

  /// A handler call the policy started.
  enum Work {
    /// Started under the lock; its task is being created.
    case starting
    /// Cancelled before its task was stored: the task is cancelled when it is.
    case cancelledWhileStarting
    case running(Task<Void, Never>)
  }

  struct State {
    var policy: OnBusyStateMachine<Value>
    var work: [UInt64: Work] = [:]
    var isShutDown = false
    /// How many handler calls have ended, and who waits for a number of them (tests).
    var completed = 0
    var completionWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// Follows the policy's answer under the lock: what to start, and the
    /// task to cancel, outside it.
    mutating func follow(_ action: OnBusyAction<Value>) -> (start: (Value, UInt64)?, cancel: Task<Void, Never>?) {
      switch action {
      case .start(let value, let generation):
        // Nothing ran, or the running call ended and the waiting value runs.
        work[generation] = .starting
        return ((value, generation), nil)
      case .restart(let cancelling, let value, let generation):
        // The running call is cancelled; the new one starts at once.
        work[generation] = .starting
        return ((value, generation), cancel(cancelling))
      case .cancelAll(let cancelling, _):
        // Everything goes; the waiting value never runs.
        return (nil, cancel(cancelling))
      case .none, .wait, .drop, .join, .signal:
        // Nothing to do now: the value waits, or is not run (a handler
        // returns nothing to share, and has nothing to signal).
        return (nil, nil)
      }
    }

    private mutating func cancel(_ generation: UInt64) -> Task<Void, Never>? {
      switch work[generation] {
      case .starting:
        // Its task is not stored yet: it is cancelled when it is.
        work[generation] = .cancelledWhileStarting
        return nil
      case .running(let task):
        work[generation] = nil
        return task
      case .cancelledWhileStarting, nil:
        // Already cancelled, or ended.
        return nil
      }
    }
  }

  private let call: Call
  private let state: LockedState<State>

  package init(onBusy: OnBusy, call: @escaping Call) {
    self.call = call
    state = LockedState(State(policy: OnBusyStateMachine(onBusy)))
  }

  /// Whether a handler call runs or a value waits.
  var isBusy: Bool {
    state.withLock { $0.policy.runningGeneration != nil }
  }

  /// Returns once `count` handler calls have ended and been followed up
  /// (the next one started, for a queue); for tests, not API.
  package func waitForCompletedCalls(count: Int) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let isReady = state.withLock { state in
        guard state.completed < count else { return true }
        state.completionWaiters.append((count, continuation))
        return false
      }
      if isReady { continuation.resume() }
    }
  }

  /// The policy emitted `value`.
  package func requested(_ value: Value) {
    let (start, cancel) = state.withLock { state in
      state.isShutDown ? (nil, nil) : state.follow(state.policy.workRequested(value))
    }
    cancel?.cancel()
    if let (value, generation) = start { self.start(value, generation) }
  }

  /// The pacer is gone: the running call is cancelled, the waiting value dropped.
  func shutDown() {
    let tasks = state.withLock { state -> [Task<Void, Never>] in
      state.isShutDown = true
      _ = state.policy.cancelled()
      defer { state.work = [:] }
      return state.work.values.compactMap { if case .running(let task) = $0 { task } else { nil } }
    }
    for task in tasks { task.cancel() }
  }

  private func start(_ value: Value, _ generation: UInt64) {
    let task = Task {
      let ownerLives = await self.call(value)
      self.finished(generation)
      if !ownerLives { self.shutDown() }
    }
    let isCancelled = state.withLock { state in
      switch state.work[generation] {
      case .starting:
        // The usual case.
        state.work[generation] = .running(task)
        return false
      case .cancelledWhileStarting:
        // Restarted away, or shut down, while the task was being created.
        state.work[generation] = nil
        return true
      case .running, nil:
        // It ended already, or the runner shut down.
        return state.isShutDown
      }
    }
    if isCancelled { task.cancel() }
  }

  private func finished(_ generation: UInt64) {
    let (start, cancel) = state.withLock { state in
      state.work[generation] = nil
      return state.isShutDown ? (nil, nil) : state.follow(state.policy.workFinished(generation: generation))
    }
    cancel?.cancel()
    if let (value, generation) = start { self.start(value, generation) }
    let waiters = state.withLock { state in
      state.completed += 1
      let ready = state.completionWaiters.filter { $0.count <= state.completed }
      state.completionWaiters.removeAll { $0.count <= state.completed }
      return ready.map { $0.continuation }
    }
    for waiter in waiters { waiter.resume() }
  }
}

/// Shuts a runner down when the pacer that feeds it is released: its handler
/// holds this, and nothing else does.
final class AsyncHandlerLifetime<Value: Sendable>: Sendable {
  let runner: AsyncHandlerRunner<Value>

  init(_ runner: AsyncHandlerRunner<Value>) {
    self.runner = runner
  }

  deinit {
    runner.shutDown()
  }
}
