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
public final class LatestTask<Success: Sendable>: Sendable, CallOwner {
  /// A call: its operation.
  @usableFromInline package typealias Call = @Sendable @isolated(any) () async throws -> Success

  @usableFromInline
  struct State {
    @usableFromInline var latest = LatestWins()
    /// The latest call, from its start until its caller is answered: only
    /// the latest ever waits (latest wins), so one slot, not a table.
    @usableFromInline var current: Execution<Success>?

    @inlinable
    init() {}
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
    try await withCall(self, operation, isolation: isolation)
  }

  /// Cancels the running operation, if any; its caller gets `CancellationError`.
  public func cancel() {
    state.withLock { state -> Execution<Success>? in
      _ = state.latest.cancel()
      return state.current.take()
    }?.lose()
  }

  /// A new call: it becomes the current one, the call before it loses, and
  /// its operation starts.
  @inlinable
  package func register(_ operation: @escaping Call, waiter: Waiter<Success>) {
    let begun = state.withLock { state -> (generation: UInt64, superseded: Execution<Success>?)? in
      // Checked under the lock that `leave` takes: a caller already
      // cancelled never supersedes the call before it.
      guard !Task.isCancelled else { return nil }
      let generation = state.latest.start().generation  // Latest wins: the call before loses now.
      defer { state.current = Execution(generation: generation, waiter: waiter) }
      return (generation, state.current.take())
    }
    guard let (generation, superseded) = begun else {
      waiter.lose()  // Cancelled before it began.
      return
    }
    superseded?.lose()
    state.startTask {
      let result: Result<Success, any Error>
      do {
        result = .success(try await operation())
      } catch {
        result = .failure(error)
      }
      self.finish(generation, with: result)
    } attach: { state, task in
      state.current.attach(task, to: generation)
    }
  }

  /// The operation of `generation` returned: its caller gets the result, if
  /// it is still the latest.
  @inlinable
  func finish(_ generation: UInt64, with result: Result<Success, any Error>) {
    state.withLock { state -> Execution<Success>? in
      guard state.latest.finish(generation) else { return nil }  // Superseded or cancelled: dropped.
      return state.current.take(generation: generation)
    }?.finish(with: result)
  }

  /// The task of `caller` was cancelled while it waits here.
  @inlinable
  package func leave(_: Call, caller: CallerIdentity) {
    state.withLock { state -> Execution<Success>? in
      guard state.current?.waiters.contains(caller) == true else { return nil }  // Already answered.
      _ = state.latest.cancel()
      return state.current.take()
    }?.lose()
  }
}
