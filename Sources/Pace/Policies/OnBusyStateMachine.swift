//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// The on-busy policy: told that work was requested, finished or cancelled,
/// it answers what to start, cancel, join or resolve. Like the pacing
/// policies it is pure: no clock, no lock, no task. Latest-wins tasks,
/// single-flight, pacers with `async` handlers and the command line's
/// `--on-busy` are its drivers.
///
/// Every start has a generation number, and "latest wins" is decided by it,
/// never by comparing requests: a finish or a result of an older generation
/// is stale and changes nothing.
///
///     var work = OnBusyStateMachine<String>(.queue)
///     work.workRequested("a")              // .start("a", generation: 1)
///     work.workRequested("b")              // .wait(superseding: nil)
///     work.workRequested("c")              // .wait(superseding: "b"): b never runs
///     work.workFinished(generation: 1)     // .start("c", generation: 2)
///     work.workFinished(generation: 2)     // .none: idle again
public struct OnBusyStateMachine<Request> {
  /// What a new request does while work runs.
  public let onBusy: OnBusy

  @usableFromInline
  enum State {
    /// No work runs.
    case idle
    /// The work of `generation` runs; `waiting` waits to run after it (queue).
    case running(generation: UInt64, waiting: Request?)
  }

  @usableFromInline var state: State = .idle
  @usableFromInline var generation: UInt64 = 0

  /// Creates the policy for `onBusy`.
  public init(_ onBusy: OnBusy) {
    self.onBusy = onBusy
  }

  /// The generation of the running work, if any.
  @inlinable
  public var runningGeneration: UInt64? {
    if case .running(let generation, _) = state { return generation }
    return nil
  }

  /// Whether a request waits to run (queue).
  public var hasWaitingRequest: Bool {
    if case .running(_, .some) = state { return true }
    return false
  }

  /// A request arrives.
  @inlinable
  public mutating func workRequested(_ request: Request) -> OnBusyAction<Request> {
    switch state {
    case .idle:
      // Nothing runs: start it.
      return start(request)
    case .running(let running, let waiting):
      switch onBusy {
      case .queue:
        // It waits; a request that waited before it never runs.
        state = .running(generation: running, waiting: request)
        return .wait(superseding: waiting)
      case .drop:
        return .drop(request)
      case .restart:
        // Latest wins: the running work is cancelled, the new one starts now.
        let action = start(request)
        guard case .start(let request, let generation) = action else { preconditionFailure("start always starts") }
        return .restart(cancelling: running, start: request, generation: generation)
      case .share:
        return .join(generation: running)
      case .signal:
        return .signal(generation: running)
      }
    }
  }

  /// The work of `generation` ended (returned, threw, or exited). A waiting
  /// request starts; a stale generation changes nothing.
  @inlinable
  public mutating func workFinished(generation finished: UInt64) -> OnBusyAction<Request> {
    switch state {
    case .running(let running, let waiting) where running == finished:
      // The running work ended: the waiting request, if any, runs now.
      guard let waiting else {
        state = .idle
        return .none
      }
      return start(waiting)
    case .running, .idle:
      // A generation that was restarted away, or a finish reported twice.
      return .none
    }
  }

  /// Everything is cancelled: the running work is cancelled, a waiting
  /// request never runs, and the policy is idle.
  @inlinable
  public mutating func cancelled() -> OnBusyAction<Request> {
    switch state {
    case .running(let running, let waiting):
      // Both go.
      state = .idle
      return .cancelAll(cancelling: running, superseding: waiting)
    case .idle:
      // Nothing to cancel.
      return .none
    }
  }

  @inlinable
  mutating func start(_ request: Request) -> OnBusyAction<Request> {
    generation &+= 1
    state = .running(generation: generation, waiting: nil)
    return .start(request, generation: generation)
  }
}

extension OnBusyStateMachine: Sendable where Request: Sendable {}
extension OnBusyStateMachine.State: Sendable where Request: Sendable {}

/// What an ``OnBusyStateMachine`` asks its driver to do.
public enum OnBusyAction<Request> {
  /// Nothing.
  case none
  /// Start the work for `request`, as `generation`.
  case start(Request, generation: UInt64)
  /// The request waits for the running work (queue); `superseding`, the
  /// request that waited before it, will never run: resolve its caller.
  case wait(superseding: Request?)
  /// The request is not run (drop): resolve its caller.
  case drop(Request)
  /// Cancel the work of `cancelling` (its caller is superseded) and start
  /// `start` as `generation`, at once.
  case restart(cancelling: UInt64, start: Request, generation: UInt64)
  /// The request shares the work of `generation`: give it that result.
  case join(generation: UInt64)
  /// Signal the work of `generation`; the request is not run.
  case signal(generation: UInt64)
  /// Cancel the work of `cancelling`, and resolve the caller of
  /// `superseding`, which never runs.
  case cancelAll(cancelling: UInt64, superseding: Request?)
}

extension OnBusyAction: Equatable where Request: Equatable {}
extension OnBusyAction: Sendable where Request: Sendable {}
