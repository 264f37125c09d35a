//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// Runs one operation at a time, latest wins: each call cancels the one
/// before, and only the latest caller gets a result.
///
/// ```swift
/// @MainActor final class SearchViewModel {
///   var results: [String] = []
///   private let searches = LatestTask<[String]>()
///
///   func queryChanged(_ query: String) async {
///     do {
///       results = try await searches.run { try await api.search(query) }
///     } catch is CancellationError {
///       // A newer query superseded this one: its results are never shown.
///     } catch {
///       // The search failed.
///     }
///   }
/// }
/// ```
///
/// - A superseded caller gets `CancellationError` at once, when the newer
///   call starts: not when its operation finally returns, and even when the
///   operation ignores cancellation (it is cancelled too, and its result is
///   dropped).
/// - Cancelling a caller's own task cancels its operation, and the caller
///   gets `CancellationError`.
/// - Which call is the latest is decided by a generation number, never by
///   comparing operations or their inputs; the timing is
///   ``OnBusyStateMachine``'s, with ``OnBusy/restart``.
public final class LatestTask<Success: Sendable>: Sendable {
  private struct Call {
    var continuation: UnsafeContinuation<Success, any Error>
    var task: Task<Void, Never>?
  }

  private struct State {
    var policy = OnBusyStateMachine<Void>(.restart)
    /// The call whose caller still waits, and its generation: only the latest
    /// ever does (latest wins), so one slot, not a dictionary.
    var current: (generation: UInt64, call: Call)?

    /// Takes the call of `generation` out, if it is the current one.
    mutating func take(_ generation: UInt64) -> Call? {
      guard let current, current.generation == generation else { return nil }
      self.current = nil
      return current.call
    }
  }

  private let state = LockedState(State())

  /// Creates a latest-wins runner.
  public init() {}

  /// Whether an operation runs for a caller that still waits.
  public var isRunning: Bool {
    state.withLock { $0.current != nil }
  }

  /// Runs `operation` and returns its result, unless a newer call or the
  /// caller's cancellation comes first; then it throws `CancellationError`.
  ///
  /// - Parameter operation: The work, run in a task of its own on its
  ///   isolation (the caller's actor, for a closure formed there).
  /// - Returns: What `operation` returned.
  /// - Throws: What `operation` threw, or `CancellationError` when superseded
  ///   or cancelled.
  public func run(
    @_inheritActorContext _ operation: @escaping @Sendable @isolated(any) () async throws -> Success
  ) async throws -> Success {
    let ticket = CallTicket()
    return try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Success, any Error>) in
        start(operation, continuation: continuation, ticket: ticket)
      }
    } onCancel: {
      if let generation = ticket.cancel() { cancel(generation) }
    }
  }

  /// Cancels the running operation, if any; its caller gets `CancellationError`.
  public func cancel() {
    let call = state.withLock { state -> Call? in
      guard case .cancelAll(let running, _) = state.policy.cancelled() else { return nil }
      return state.take(running)
    }
    resolve(call)
  }

  private func start(
    _ operation: @escaping @Sendable @isolated(any) () async throws -> Success,
    continuation: UnsafeContinuation<Success, any Error>, ticket: CallTicket
  ) {
    // The ticket's lock first: a caller already cancelled never supersedes the call before it.
    let superseded = ticket.begin { () -> (generation: UInt64, superseded: Call?)? in
      state.withLock { state in
        let generation: UInt64
        var superseded: Call?
        switch state.policy.workRequested(()) {
        case .start(_, let started):
          // Nothing ran.
          generation = started
        case .restart(let cancelling, _, let started):
          // Latest wins: the caller before is resolved now.
          generation = started
          superseded = state.take(cancelling)
        case .none, .wait, .drop, .join, .signal, .cancelAll:
          preconditionFailure("restart only starts or restarts")
        }
        state.current = (generation, Call(continuation: continuation))
        return (generation, superseded)
      }
    }
    guard let (generation, supersededCall) = superseded else {
      continuation.resume(throwing: CancellationError())  // Cancelled before it began.
      return
    }
    resolve(supersededCall)
    let task = Task {
      let result: Result<Success, any Error>
      do {
        result = .success(try await operation())
      } catch {
        result = .failure(error)
      }
      self.finish(generation, with: result)
    }
    let isCurrent = state.withLock { state in
      guard state.current?.generation == generation else { return false }
      state.current?.call.task = task
      return true
    }
    if !isCurrent { task.cancel() }  // Superseded or cancelled while it was being started.
  }

  private func finish(_ generation: UInt64, with result: Result<Success, any Error>) {
    let call = state.withLock { state -> Call? in
      _ = state.policy.workFinished(generation: generation)
      return state.take(generation)
    }
    call?.continuation.resume(with: result)  // Nil: superseded or cancelled, so the result is dropped.
  }

  private func cancel(_ generation: UInt64) {
    let call = state.withLock { state -> Call? in
      guard let call = state.take(generation) else { return nil }
      if state.policy.runningGeneration == generation { _ = state.policy.cancelled() }
      return call
    }
    resolve(call)
  }

  /// A call that lost: its caller gets `CancellationError`, its operation is cancelled.
  private func resolve(_ call: Call?) {
    guard let call else { return }
    call.continuation.resume(throwing: CancellationError())
    call.task?.cancel()
  }
}
