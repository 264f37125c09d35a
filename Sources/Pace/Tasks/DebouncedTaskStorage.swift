//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// The calls of a ``DebouncedTask``: the one waiting for the quiet period and
/// the one running. It does not hold the debouncer (which holds it), so the
/// task's methods hand the debouncer in; they touch it under the lock, so the
/// policy sees calls in the order of their generations.
final class DebouncedTaskStorage<Argument: Sendable, Success: Sendable>: Sendable {
  typealias Operation = @Sendable @isolated(any) (Argument) async throws -> Success

  struct Call {
    let generation: UInt64
    let caller: CallerIdentity
    let argument: Argument
    let continuation: UnsafeContinuation<Success, any Error>
    var task: Task<Void, any Error>?
  }

  struct State {
    var nextGeneration: UInt64 = 0
    /// The latest call the policy holds, waiting for the quiet period.
    var waiting: Call?
    /// Latest wins among the calls that started.
    var policy = OnBusyStateMachine<Void>(.restart)
    /// The running call and its work generation.
    var running: (work: UInt64, call: Call)?
    /// Tasks waiting until this many calls have reached the policy; for tests.
    var callWaiters: [(count: UInt64, continuation: CheckedContinuation<Void, Never>)] = []

    /// The call waiters whose count is reached, taken out.
    mutating func takeReadyCallWaiters() -> [CheckedContinuation<Void, Never>] {
      guard !callWaiters.isEmpty else { return [] }
      let ready = callWaiters.filter { $0.count <= nextGeneration }
      callWaiters.removeAll { $0.count <= nextGeneration }
      return ready.map { $0.continuation }
    }
  }

  private let operation: Operation
  private let state = LockedState(State())

  init(operation: @escaping Operation) {
    self.operation = operation
  }

  var isWaiting: Bool {
    state.withLock { $0.waiting != nil }
  }

  var isRunning: Bool {
    state.withLock { $0.running != nil }
  }

  /// Returns once `count` calls have reached the policy since the start.
  func waitForCalls(count: Int) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let ready = state.withLock { state in
        guard state.nextGeneration < UInt64(count) else { return true }
        state.callWaiters.append((UInt64(count), continuation))
        return false
      }
      if ready { continuation.resume() }
    }
  }

  /// A caller arrives: the policy is told, under the lock, and the call
  /// waits, superseding the call that waited before it; or it is dropped.
  func request(
    _ argument: Argument, caller: CallerIdentity, continuation: UnsafeContinuation<Success, any Error>,
    debouncer: Debouncer<UInt64>
  ) {
    let (kept, ready) = state.withLock { state -> (kept: Call??, ready: [CheckedContinuation<Void, Never>]) in
      // Checked under the lock that the cancellation handler takes: either
      // the handler finds this call, or this finds the caller cancelled.
      guard !Task.isCancelled else { return (nil, []) }
      state.nextGeneration &+= 1
      let generation = state.nextGeneration
      let ready = state.takeReadyCallWaiters()
      guard debouncer.sendReportingKept(generation) else {
        return (nil, ready)  // Dropped: a burst's later call, with the leading edge only.
      }
      let superseded = state.waiting
      state.waiting = Call(generation: generation, caller: caller, argument: argument, continuation: continuation)
      return (.some(superseded), ready)
    }
    for waiter in ready { waiter.resume() }
    guard let superseded = kept else {
      continuation.resume(throwing: CancellationError())  // Cancelled before it began, or dropped.
      return
    }
    resolve(superseded)
  }

  /// The policy emitted `generation`: its call starts, if it still waits,
  /// and the running one, from an older burst, is cancelled.
  func debounced(_ generation: UInt64) {
    let started = state.withLock { state -> (work: UInt64, argument: Argument, superseded: Call?)? in
      guard let call = state.waiting, call.generation == generation else {
        return nil  // Superseded or cancelled since the policy took it.
      }
      state.waiting = nil
      switch state.policy.workRequested(()) {
      case .start(_, let work):
        // Nothing runs.
        state.running = (work, call)
        return (work, call.argument, nil)
      case .restart(_, _, let work):
        // Latest wins: the older burst's call is resolved now.
        let superseded = state.running?.call
        state.running = (work, call)
        return (work, call.argument, superseded)
      case .none, .wait, .drop, .join, .signal, .cancelAll:
        preconditionFailure("restart only starts or restarts")
      }
    }
    guard let started else { return }
    resolve(started.superseded)
    let operation = operation
    // A plain task, not an immediate one: this runs on the timer's thread,
    // which must not run the operation. The closure is throwing, though it
    // never throws: `Task` runs every body as a throwing function, and
    // converting a non-throwing one costs an allocation.
    let task = Task { () async throws -> Void in
      let result: Result<Success, any Error>
      do {
        result = .success(try await operation(started.argument))
      } catch {
        result = .failure(error)
      }
      self.finish(started.work, with: result)
    }
    let isCurrent = state.withLock { state in
      guard state.running?.work == started.work else { return false }
      state.running?.call.task = task
      return true
    }
    if !isCurrent { task.cancel() }  // Superseded or cancelled while it was being started.
  }

  private func finish(_ work: UInt64, with result: Result<Success, any Error>) {
    let call = state.withLock { state -> Call? in
      _ = state.policy.workFinished(generation: work)
      guard state.running?.work == work else { return nil }  // Superseded: its result is dropped.
      defer { state.running = nil }
      return state.running?.call
    }
    call?.continuation.resume(with: result)
  }

  /// The task of `caller` was cancelled while it waits here: its call never
  /// runs, or its operation is cancelled.
  func cancel(_ caller: CallerIdentity, debouncer: Debouncer<UInt64>) {
    let call = state.withLock { state -> Call? in
      if let waiting = state.waiting, waiting.caller == caller {
        state.waiting = nil
        debouncer.cancel()  // A new call starts a new burst.
        return waiting
      }
      if let running = state.running, running.call.caller == caller {
        state.running = nil
        _ = state.policy.cancelled()
        return running.call
      }
      return nil  // Already resolved.
    }
    resolve(call)
  }

  func cancelAll(debouncer: Debouncer<UInt64>) {
    let calls = state.withLock { state -> [Call] in
      debouncer.cancel()
      _ = state.policy.cancelled()
      defer { (state.waiting, state.running) = (nil, nil) }
      return [state.waiting, state.running?.call].compactMap { $0 }
    }
    for call in calls { resolve(call) }
  }

  /// A call that lost: its caller gets `CancellationError`, its operation is cancelled.
  private func resolve(_ call: Call?) {
    guard let call else { return }
    call.continuation.resume(throwing: CancellationError())
    call.task?.cancel()
  }
}
