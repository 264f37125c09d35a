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
  /// The latest call, from its start until its caller is resolved.
  @usableFromInline
  struct Call {
    @usableFromInline let generation: UInt64
    @usableFromInline let caller: CallerIdentity
    @usableFromInline let continuation: UnsafeContinuation<Success, any Error>
    /// Set just after the call begins; a call that loses before then has
    /// its task cancelled by the one that starts it.
    @usableFromInline var task: Task<Void, any Error>?

    @inlinable
    init(generation: UInt64, caller: CallerIdentity, continuation: UnsafeContinuation<Success, any Error>) {
      self.generation = generation
      self.caller = caller
      self.continuation = continuation
    }
  }

  @usableFromInline
  struct State {
    @usableFromInline var policy = OnBusyStateMachine<Void>(.restart)
    /// The call whose caller still waits: only the latest ever does (latest
    /// wins), so one slot, not a dictionary.
    @usableFromInline var current: Call?

    @inlinable
    init() {}

    /// Takes the current call out, if `matches` says it is the one.
    @inlinable
    mutating func take(where matches: (Call) -> Bool) -> Call? {
      guard let current, matches(current) else { return nil }
      self.current = nil
      return current
    }
  }

  @usableFromInline
  let state = LockedState(State())

  /// Creates a latest-wins runner.
  public init() {}

  /// Whether an operation runs for a caller that still waits.
  public var isRunning: Bool {
    state.withLock { $0.current != nil }
  }

  /// Runs `operation` and returns its result, unless a newer call or the
  /// caller's cancellation comes first; then it throws `CancellationError`.
  ///
  /// - Parameters:
  ///   - isolation: The caller's actor, where the call registers before any
  ///     suspension, so that calls made on one actor keep their order. Leave
  ///     it to its default.
  ///   - operation: The work, run in a task of its own on its isolation (the
  ///     caller's actor, for a closure formed there). It starts at once,
  ///     running on the caller's thread until it first suspends, where the
  ///     platform allows (`Task.immediate`).
  /// - Returns: What `operation` returned.
  /// - Throws: What `operation` threw, or `CancellationError` when superseded
  ///   or cancelled.
  @inlinable
  public func run(
    isolation: isolated (any Actor)? = #isolation,
    @_inheritActorContext _ operation: @escaping @Sendable @isolated(any) () async throws -> Success
  ) async throws -> Success {
    let caller = CallerIdentity.current
    return try await withTaskCancellationHandler {
      // Captures the caller's isolation, so that the call registers on it,
      // before any suspension: calls made on one actor keep their order.
      _ = isolation
      return try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Success, any Error>) in
        start(operation, caller: caller, continuation: continuation)
      }
    } onCancel: {
      cancel(caller)
    }
  }

  /// Cancels the running operation, if any; its caller gets `CancellationError`.
  public func cancel() {
    let call = state.withLock { state -> Call? in
      guard case .cancelAll(let running, _) = state.policy.cancelled() else { return nil }
      return state.take { $0.generation == running }
    }
    resolve(call)
  }

  /// A new call: it becomes the current one, the call before it loses, and
  /// its operation starts.
  @inlinable
  func start(
    _ operation: @escaping @Sendable @isolated(any) () async throws -> Success, caller: CallerIdentity,
    continuation: UnsafeContinuation<Success, any Error>
  ) {
    let begun = state.withLock { state -> (generation: UInt64, superseded: Call?)? in
      // Checked under the lock that the cancellation handler takes: either
      // the handler finds this call, or this finds the caller cancelled. A
      // caller already cancelled never supersedes the call before it.
      guard !Task.isCancelled else { return nil }
      let generation: UInt64
      var superseded: Call?
      switch state.policy.workRequested(()) {
      case .start(_, let started):
        generation = started  // Nothing ran.
      case .restart(let cancelling, _, let started):
        generation = started  // Latest wins: the call before loses now.
        superseded = state.take { $0.generation == cancelling }
      case .none, .wait, .drop, .join, .signal, .cancelAll:
        preconditionFailure("restart only starts or restarts")
      }
      state.current = Call(generation: generation, caller: caller, continuation: continuation)
      return (generation, superseded)
    }
    guard let (generation, superseded) = begun else {
      continuation.resume(throwing: CancellationError())  // Cancelled before it began.
      return
    }
    resolve(superseded)
    let task = startTask {
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
      state.current?.task = task
      return true
    }
    if !isCurrent { task.cancel() }  // Done, superseded or cancelled while it was being started.
  }

  /// The operation of `generation` returned: its caller gets the result, if
  /// it is still the latest.
  @inlinable
  func finish(_ generation: UInt64, with result: Result<Success, any Error>) {
    let call = state.withLock { state -> Call? in
      _ = state.policy.workFinished(generation: generation)
      return state.take { $0.generation == generation }
    }
    call?.continuation.resume(with: result)  // Nil: superseded or cancelled, so the result is dropped.
  }

  /// The task of `caller` was cancelled while it waits here.
  @inlinable
  func cancel(_ caller: CallerIdentity) {
    let call = state.withLock { state -> Call? in
      guard let call = state.take(where: { $0.caller == caller }) else { return nil }
      if state.policy.runningGeneration == call.generation { _ = state.policy.cancelled() }
      return call
    }
    resolve(call)
  }

  /// A call that lost: its caller gets `CancellationError`, its operation is
  /// cancelled.
  @inlinable
  func resolve(_ call: Call?) {
    guard let call else { return }
    call.continuation.resume(throwing: CancellationError())
    call.task?.cancel()
  }
}
