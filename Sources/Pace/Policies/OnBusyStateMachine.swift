//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// The on-busy policy: told that work was requested, finished or cancelled,
/// it answers what to start, cancel or resolve. Like the pacing policies it
/// is pure: no clock, no lock, no task. Pacers with `async` handlers,
/// ``DebouncedTask``, `Pager` and the command line's `--on-busy` are its
/// drivers.
///
/// Every start has a generation number, and which work is the latest is
/// decided by it (`LatestWins`), never by comparing requests: a finish of an
/// older generation is stale and changes nothing.
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

  /// Which work runs, and counts.
  @usableFromInline var latest = LatestWins()
  /// The request that waits to run after the running work (queue).
  @usableFromInline var waiting: Request?

  /// Creates the policy for `onBusy`.
  public init(_ onBusy: OnBusy) {
    self.onBusy = onBusy
  }

  /// Creates the policy for `onBusy`, whose generations follow `generation`
  /// (see ``LatestWins/init(after:)``).
  package init(_ onBusy: OnBusy, generationsAfter generation: UInt64) {
    self.onBusy = onBusy
    latest = LatestWins(after: generation)
  }

  /// The generation of the latest work started (0 before the first).
  package var latestGeneration: UInt64 {
    latest.latest
  }

  /// The generation of the running work, if any.
  @inlinable
  public var runningGeneration: UInt64? {
    latest.running
  }

  /// Whether a request waits to run (queue).
  public var hasWaitingRequest: Bool {
    waiting != nil
  }

  /// A request arrives.
  @inlinable
  public mutating func workRequested(_ request: Request) -> OnBusyAction<Request> {
    guard let running = latest.running else {
      // Nothing runs: start it.
      return .start(request, generation: latest.start().generation)
    }
    switch onBusy {
    case .queue:
      // It waits; a request that waited before it never runs.
      defer { waiting = request }
      return .wait(superseding: waiting)
    case .drop:
      // The running work goes on.
      return .drop(request)
    case .restart:
      // Latest wins: the running work is cancelled, the new one starts now.
      return .restart(cancelling: running, start: request, generation: latest.start().generation)
    }
  }

  /// The work of `generation` ended (returned, threw, or exited). A waiting
  /// request starts; a stale generation changes nothing.
  @inlinable
  public mutating func workFinished(generation finished: UInt64) -> OnBusyAction<Request> {
    // A generation that was restarted away, or a finish reported twice: stale.
    guard latest.finish(finished) else { return .none }
    // The running work ended: the waiting request, if any, runs now.
    guard let next = waiting.take() else { return .none }
    return .start(next, generation: latest.start().generation)
  }

  /// The request that waits (queue) is withdrawn, if `matches` says it is
  /// the one: it never runs, and the running work goes on. For drivers whose
  /// requests carry a caller who may leave.
  @inlinable
  package mutating func waitingWithdrawn(where matches: (Request) -> Bool) -> Request? {
    guard let request = waiting, matches(request) else { return nil }
    waiting = nil
    return request
  }

  /// Everything is cancelled: the running work is cancelled, a waiting
  /// request never runs, and the policy is idle.
  @inlinable
  public mutating func cancelled() -> OnBusyAction<Request> {
    // Nothing runs: nothing to cancel (nothing waits without running work).
    guard let running = latest.cancel() else { return .none }
    // Both go.
    return .cancelAll(cancelling: running, superseding: waiting.take())
  }
}

extension OnBusyStateMachine: Sendable where Request: Sendable {}

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
  /// Cancel the work of `cancelling`, and resolve the caller of
  /// `superseding`, which never runs.
  case cancelAll(cancelling: UInt64, superseding: Request?)
}

extension OnBusyAction: Equatable where Request: Equatable {}
extension OnBusyAction: Sendable where Request: Sendable {}
