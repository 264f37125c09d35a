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
///
/// It gives the ``OnBusy/share`` answer of the on-busy policy, per key; it
/// keeps entries with an identity of their own rather than an
/// ``OnBusyStateMachine`` per key, whose generations would start again with
/// each entry.
public final class SingleFlight<Key: Hashable & Sendable, Success: Sendable>: Sendable {
  /// A caller that waits for an execution.
  @usableFromInline
  struct Waiter {
    @usableFromInline let caller: CallerIdentity
    @usableFromInline let continuation: UnsafeContinuation<Success, any Error>

    @inlinable
    init(caller: CallerIdentity, continuation: UnsafeContinuation<Success, any Error>) {
      self.caller = caller
      self.continuation = continuation
    }
  }

  /// One execution for a key.
  @usableFromInline
  struct Entry {
    /// Tells this execution from a later one for the same key.
    @usableFromInline let id: UInt64
    /// Set just after the execution starts; if every caller leaves before
    /// then, the one that starts it cancels it.
    @usableFromInline var task: Task<Void, any Error>?
    /// The callers that wait, in the order they came; a few at most, so a
    /// list is cheaper than a dictionary. A caller is in one list at most:
    /// an entry leaves the table before a newer one for its key comes.
    @usableFromInline var waiters: [Waiter]

    @inlinable
    init(id: UInt64, first: Waiter) {
      self.id = id
      // Room for a few from the start: joiners come in bursts, and growing
      // one by one would reallocate at each power of two.
      waiters = []
      waiters.reserveCapacity(4)
      waiters.append(first)
    }
  }

  @usableFromInline
  struct State {
    @usableFromInline var nextID: UInt64 = 0
    @usableFromInline var entries: [Key: Entry] = [:]
    /// Tasks waiting until a key has this many callers; for tests.
    @usableFromInline var joinWaiters: [(key: Key, count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    @inlinable
    init() {}

    /// The join waiters whose count is reached, taken out.
    @inlinable
    mutating func takeReadyJoinWaiters() -> [CheckedContinuation<Void, Never>] {
      guard !joinWaiters.isEmpty else { return [] }
      let ready = joinWaiters.filter { (entries[$0.key]?.waiters.count ?? 0) >= $0.count }
      joinWaiters.removeAll { (entries[$0.key]?.waiters.count ?? 0) >= $0.count }
      return ready.map { $0.continuation }
    }
  }

  @usableFromInline
  let state = LockedState(State())

  /// Creates a single-flight guard.
  public init() {}

  /// The number of keys whose work runs now.
  public var runningCount: Int {
    state.withLock { $0.entries.count }
  }

  /// Returns once `callers` callers wait on the work for `key`; for tests, not API.
  package func waitUntil(callers: Int, key: Key) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let ready = state.withLock { state in
        guard (state.entries[key]?.waiters.count ?? 0) < callers else { return true }
        state.joinWaiters.append((key, callers, continuation))
        return false
      }
      if ready { continuation.resume() }
    }
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
    let caller = CallerIdentity.current
    return try await withTaskCancellationHandler {
      // Captures the caller's isolation, so that the call registers on it,
      // before any suspension: calls made on one actor keep their order.
      _ = isolation
      return try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Success, any Error>) in
        join(key, operation, waiter: Waiter(caller: caller, continuation: continuation))
      }
    } onCancel: {
      leave(key, caller: caller)
    }
  }

  /// A caller joins the execution for `key`, or starts one.
  @inlinable
  func join(
    _ key: Key, _ operation: @escaping @Sendable @isolated(any) () async throws -> Success, waiter: Waiter
  ) {
    let joined = state.withLock {
      state -> (starting: UInt64?, ready: [CheckedContinuation<Void, Never>])? in
      // Checked under the lock that the cancellation handler takes: either
      // the handler finds this caller, or this finds it cancelled.
      guard !Task.isCancelled else { return nil }
      var starting: UInt64?
      if let index = state.entries.index(forKey: key) {
        state.entries.values[index].waiters.append(waiter)  // Work runs for this key: share it.
      } else {
        state.nextID &+= 1  // None runs: this call starts it.
        starting = state.nextID
        state.entries[key] = Entry(id: state.nextID, first: waiter)
      }
      return (starting, state.takeReadyJoinWaiters())
    }
    guard let joined else {
      waiter.continuation.resume(throwing: CancellationError())  // Cancelled before it joined.
      return
    }
    for ready in joined.ready { ready.resume() }
    guard let entry = joined.starting else { return }
    let task = startTask {
      let result: Result<Success, any Error>
      do {
        result = .success(try await operation())
      } catch {
        result = .failure(error)
      }
      self.finish(key, entry: entry, with: result)
    }
    let isCurrent = state.withLock { state in
      guard let index = state.entries.index(forKey: key), state.entries.values[index].id == entry else {
        return false
      }
      state.entries.values[index].task = task
      return true
    }
    if !isCurrent { task.cancel() }  // Done, or every caller left while it was being started.
  }

  /// The work of `entry` ended: every caller still waiting gets its result,
  /// and the entry goes, unless it is no longer the one for `key`.
  @inlinable
  func finish(_ key: Key, entry: UInt64, with result: Result<Success, any Error>) {
    let waiters = state.withLock { state -> [Waiter] in
      guard let index = state.entries.index(forKey: key), state.entries.values[index].id == entry else {
        return []  // A late finisher: a newer entry stays.
      }
      return state.entries.remove(at: index).value.waiters
    }
    for waiter in waiters { waiter.continuation.resume(with: result) }
  }

  /// The task of `caller` was cancelled while it waits for `key`: it leaves;
  /// the work goes on for the others, and is cancelled when none is left.
  @inlinable
  func leave(_ key: Key, caller: CallerIdentity) {
    let (waiter, task) = state.withLock { state -> (Waiter?, Task<Void, any Error>?) in
      guard let index = state.entries.index(forKey: key),
        let place = state.entries.values[index].waiters.firstIndex(where: { $0.caller == caller })
      else { return (nil, nil) }
      let waiter = state.entries.values[index].waiters.remove(at: place)
      guard state.entries.values[index].waiters.isEmpty else { return (waiter, nil) }
      return (waiter, state.entries.remove(at: index).value.task)
    }
    waiter?.continuation.resume(throwing: CancellationError())
    task?.cancel()
  }
}
