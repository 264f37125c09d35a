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
  private struct Entry {
    /// Tells this execution from a later one for the same key.
    let id: UInt64
    var task: Task<Void, Never>?
    /// The callers that wait, in the order they came; a few at most, so a
    /// list is cheaper than a dictionary.
    var waiters: [(id: UInt64, continuation: UnsafeContinuation<Success, any Error>)] = []
  }

  private struct State {
    var nextID: UInt64 = 0
    var entries: [Key: Entry] = [:]
    /// Tasks waiting until a key has this many callers; for tests.
    var joinWaiters: [(key: Key, count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// The join waiters whose count is reached, taken out.
    mutating func takeReadyJoinWaiters() -> [CheckedContinuation<Void, Never>] {
      guard !joinWaiters.isEmpty else { return [] }
      let ready = joinWaiters.filter { (entries[$0.key]?.waiters.count ?? 0) >= $0.count }
      joinWaiters.removeAll { (entries[$0.key]?.waiters.count ?? 0) >= $0.count }
      return ready.map { $0.continuation }
    }
  }

  private let state = LockedState(State())

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
  ///   - operation: The work, run in a task of its own on its isolation; it
  ///     runs only when no execution for `key` is running.
  /// - Returns: What the shared execution returned.
  /// - Throws: What it threw, or `CancellationError` when the caller is cancelled.
  public func run(
    key: Key, @_inheritActorContext _ operation: @escaping @Sendable @isolated(any) () async throws -> Success
  ) async throws -> Success {
    let ticket = FlightTicket()
    return try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Success, any Error>) in
        join(key, operation, continuation: continuation, ticket: ticket)
      }
    } onCancel: {
      if let (entry, waiter) = ticket.cancel() { leave(key, entry: entry, waiter: waiter) }
    }
  }

  private func join(
    _ key: Key, _ operation: @escaping @Sendable @isolated(any) () async throws -> Success,
    continuation: UnsafeContinuation<Success, any Error>, ticket: FlightTicket
  ) {
    let joined = ticket.begin { () -> (entry: UInt64, waiter: UInt64, starts: Bool)? in
      state.withLock { state in
        state.nextID &+= 1
        let waiter = state.nextID
        if let index = state.entries.index(forKey: key) {
          // Work runs for this key: share it.
          state.entries.values[index].waiters.append((waiter, continuation))
          return (state.entries.values[index].id, waiter, false)
        }
        // None runs: this call starts it.
        state.nextID &+= 1
        state.entries[key] = Entry(id: state.nextID, waiters: [(waiter, continuation)])
        return (state.nextID, waiter, true)
      }
    }
    guard let joined else {
      continuation.resume(throwing: CancellationError())  // Cancelled before it joined.
      return
    }
    for waiter in state.withLock({ $0.takeReadyJoinWaiters() }) { waiter.resume() }
    guard joined.starts else { return }
    let entry = joined.entry
    let task = Task {
      let result: Result<Success, any Error>
      do {
        result = .success(try await operation())
      } catch {
        result = .failure(error)
      }
      self.finish(key, entry: entry, with: result)
    }
    let isCurrent = state.withLock { state in
      guard state.entries[key]?.id == entry else { return false }
      state.entries[key]!.task = task
      return true
    }
    if !isCurrent { task.cancel() }  // Every caller left while it was being started.
  }

  /// The work of `entry` ended: every caller still waiting gets its result,
  /// and the entry goes, unless it is no longer the one for `key`.
  private func finish(_ key: Key, entry: UInt64, with result: Result<Success, any Error>) {
    let waiters = state.withLock { state -> [(id: UInt64, continuation: UnsafeContinuation<Success, any Error>)] in
      guard let index = state.entries.index(forKey: key), state.entries.values[index].id == entry else {
        return []  // A late finisher: a newer entry stays.
      }
      return state.entries.remove(at: index).value.waiters
    }
    for waiter in waiters { waiter.continuation.resume(with: result) }
  }

  /// A caller was cancelled: it leaves; the work goes on for the others, and
  /// is cancelled when none is left.
  private func leave(_ key: Key, entry: UInt64, waiter: UInt64) {
    let (continuation, task) = state.withLock {
      state -> (UnsafeContinuation<Success, any Error>?, Task<Void, Never>?) in
      guard let index = state.entries.index(forKey: key), state.entries.values[index].id == entry,
        let place = state.entries.values[index].waiters.firstIndex(where: { $0.id == waiter })
      else { return (nil, nil) }
      let continuation = state.entries.values[index].waiters.remove(at: place).continuation
      guard state.entries.values[index].waiters.isEmpty else { return (continuation, nil) }
      return (continuation, state.entries.removeValue(forKey: key)?.task)
    }
    continuation?.resume(throwing: CancellationError())
    task?.cancel()
  }
}

/// One call's place in a flight, shared with its cancellation handler, which
/// may run before the call has joined.
private final class FlightTicket: Sendable {
  private let state = LockedState<(place: (entry: UInt64, waiter: UInt64)?, isCancelled: Bool)>((nil, false))

  /// Runs `join` unless the caller was cancelled first; keeps its place.
  func begin(
    _ join: () -> (entry: UInt64, waiter: UInt64, starts: Bool)?
  ) -> (entry: UInt64, waiter: UInt64, starts: Bool)? {
    state.withLock { state in
      guard !state.isCancelled, let joined = join() else { return nil }
      state.place = (joined.entry, joined.waiter)
      return joined
    }
  }

  /// Marks the caller cancelled; its place, if it has joined.
  func cancel() -> (entry: UInt64, waiter: UInt64)? {
    state.withLock { state in
      state.isCancelled = true
      return state.place
    }
  }
}
