//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// Never runs the same work twice at once: concurrent callers with the same
/// key share one execution and its result or error.
///
/// ```swift
/// actor ImageCache {
///   private let loads = SingleFlight<URL, Data>()
///   func image(at url: URL) async throws -> Data {
///     try await loads.run(key: url) { try await download(url) }   // one download per URL at a time
///   }
/// }
/// ```
///
/// - The guard takes effect before the caller's first suspension: two calls
///   in the same turn of an actor start one execution.
/// - Cancelling one caller resolves it with `CancellationError` and leaves
///   the work running for the others; the work is cancelled when every
///   caller has gone.
/// - The work removes its own entry when it ends, by identity: a late
///   finisher (work that ignored its cancellation) never removes a newer
///   entry for the same key.

public final class SingleFlight<Key: Hashable & Sendable, Success: Sendable>: Sendable, CallOwner {
  /// A call: the key that makes two calls the same work, and the work.
  @usableFromInline package typealias Call = (key: Key, operation: @Sendable @isolated(any) () async throws -> Success)

  @usableFromInline
  struct State {
    /// Tells an execution from a later one for the same key.
    @usableFromInline var nextGeneration: UInt64 = 0
    /// One execution per key whose work runs. A caller waits in one at most:
    /// an execution leaves the table before a newer one for its key comes.
    @usableFromInline var executions: [Key: Execution<Success>] = [:]
    /// Tests waiting for a number of callers.
    @usableFromInline var progress = ProgressWaiters<[Key: Int]>()

    @inlinable
    init() {}

    @inlinable
    var callers: [Key: Int] { executions.mapValues(\.waiters.count) }
  }

  @usableFromInline
  let state = LockedState(State())

  /// Creates a single-flight guard.
  public init() {}

  /// The number of keys whose work runs now.
  public var runningCount: Int {
    state.withLock { $0.executions.count }
  }

  /// Returns once `callers` callers wait on the work for `key`; for tests, not API.
  package func waitUntil(callers: Int, key: Key) async {
    await state.wait(in: \.progress, until: { ($0[key] ?? 0) >= callers }, now: \.callers)
  }

  /// Runs `operation` for `key`, or joins the execution already running for
  /// it, and returns its result.
  ///
  /// - Parameters:
  ///   - key: What makes two calls the same work.
  ///   - isolation: The caller's actor, where the call joins before any
  ///     suspension: two calls in one turn of an actor share one execution.
  ///     Leave it to its default.
  ///   - operation: The work, run in a task of its own on its isolation; it
  ///     runs only when no execution for `key` is running. It starts at once,
  ///     on the caller's thread until it first suspends, where the platform
  ///     allows (`Task.immediate`).
  /// - Returns: What the shared execution returned.
  /// - Throws: What it threw, or `CancellationError` when the caller is cancelled.
  @inlinable
  public func run(
    key: Key, isolation: isolated (any Actor)? = #isolation,
    @_inheritActorContext _ operation: @escaping @Sendable @isolated(any) () async throws -> Success
  ) async throws -> Success {
    try await withCall(self, (key, operation), isolation: isolation)
  }

  /// A caller comes for `call.key`: it joins the execution, or starts one.
  @inlinable
  package func register(_ call: Call, waiter: Waiter<Success>) {
    join(call.key, call.operation, waiter: waiter)
  }

  /// The task of `caller` was cancelled while it waits for `call.key`.
  @inlinable
  package func leave(_ call: Call, caller: CallerIdentity) {
    leave(call.key, caller: caller)
  }

  /// A caller joins the execution for `key`, or starts one.
  @inlinable
  func join(
    _ key: Key, _ operation: @escaping @Sendable @isolated(any) () async throws -> Success, waiter: Waiter<Success>
  ) {
    let joined = state.withLock { state -> (starting: UInt64?, reached: [CheckedContinuation<Void, Never>])? in
      // Checked under the lock that `leave` takes: either it finds this
      // caller, or this finds it cancelled.
      guard !Task.isCancelled else { return nil }
      var starting: UInt64?
      if let index = state.executions.index(forKey: key) {
        state.executions.values[index].waiters.append(waiter)  // Work runs for this key: share it.
      } else {
        state.nextGeneration &+= 1  // None runs: this call starts it.
        starting = state.nextGeneration
        state.executions[key] = Execution(generation: state.nextGeneration, waiter: waiter)
      }
      return (starting, state.progress.isEmpty ? [] : state.progress.takeReached(state.callers))
    }
    guard let joined else {
      waiter.lose()  // Cancelled before it joined.
      return
    }
    for reached in joined.reached { reached.resume() }
    guard let generation = joined.starting else { return }
    state.startTask {
      let result: Result<Success, any Error>
      do {
        result = .success(try await operation())
      } catch {
        result = .failure(error)
      }
      self.finish(key, generation, with: result)
    } attach: { state, task in
      state.executions[key].attach(task, to: generation)
    }
  }

  /// The work of `generation` ended: every caller still waiting gets its
  /// result, and the execution goes, unless it is no longer the one for `key`.
  @inlinable
  func finish(_ key: Key, _ generation: UInt64, with result: Result<Success, any Error>) {
    state.withLock { state -> Execution<Success>? in
      state.executions[key].take(generation: generation)  // Nil for a late finisher: a newer one stays.
    }?.finish(with: result)
  }

  /// The task of `caller` was cancelled while it waits for `key`: it leaves;
  /// the work goes on for the others, and is cancelled when none is left.
  @inlinable
  func leave(_ key: Key, caller: CallerIdentity) {
    let (waiter, abandoned) = state.withLock { state -> (Waiter<Success>?, Execution<Success>?) in
      guard let index = state.executions.index(forKey: key),
        let waiter = state.executions.values[index].waiters.remove(caller)
      else { return (nil, nil) }  // Already answered.
      guard state.executions.values[index].waiters.isEmpty else { return (waiter, nil) }
      return (waiter, state.executions.remove(at: index).value)
    }
    waiter?.lose()
    abandoned?.lose()  // No caller left: the work is cancelled.
  }
}
