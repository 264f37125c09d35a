//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// An awaitable debounce: each call waits for the quiet period, then the
/// operation runs once, with the latest argument, and its caller gets the
/// result.
///
/// ```swift
/// @MainActor final class SearchViewModel {
///   var results: [String] = []
///   private let search = DebouncedTask<String, [String]>(for: .milliseconds(300)) { query in
///     try await api.search(query)
///   }
///
///   func queryChanged(_ query: String) async {
///     do {
///       results = try await search.run(query)
///     } catch is CancellationError {
///       // A newer query came within 300 ms, or a newer search started: nothing to show.
///     } catch {
///       // The search failed.
///     }
///   }
/// }
/// ```
///
///     run:        a-b-c-----d------
///     operation:  -------[c--]-[d--]    (interval: 3 steps; each run takes 3)
///     a, b:       cancelled at b, at c
///
/// - A caller whose argument is superseded by a newer call of the same burst
///   gets `CancellationError` at once, when the newer call is made.
/// - When the operation starts for a newer burst, the one still running for
///   an older burst is cancelled and its caller gets `CancellationError`:
///   latest wins, as ``LatestTask`` (the ``OnBusy/restart`` answer of
///   ``OnBusyStateMachine``, the same runner as a pacer's `async` handler).
/// - A call the policy drops (inside a burst, with `.leading` only) gets
///   `CancellationError` at once; the burst's first call runs.
/// - Cancelling a caller's task cancels its call: it never runs, or its
///   operation is cancelled.
///
/// The timing is ``DebounceStateMachine``'s, on any clock, run by the
/// driver core that runs every pacer, under the same lock as the calls:
/// there is no `Task.sleep` here.
///
/// A model that owns its debounced task passes itself as `owner:`, as to a
/// ``Debouncer``: the task holds it weakly and the operation runs on its
/// isolation.
public final class DebouncedTask<Argument: Sendable, Success: Sendable>: Sendable {
  private let storage: DebouncedTaskStorage<Argument, Success>

  /// Creates an awaitable debounce of `operation`.
  ///
  ///     let save = DebouncedTask<String, Void>(for: .seconds(1)) { draft in try await store.save(draft) }
  ///     try await save.run(draft)   // returns once this draft, the last of its burst, is saved
  ///
  /// - Parameters:
  ///   - interval: The quiet period that ends a burst of calls; a negative one counts as zero.
  ///   - edges: Which calls of a burst run: the last by default.
  ///   - clock: The clock that measures time; the continuous clock by default.
  ///   - operation: The work, run in a task of its own on its isolation (the
  ///     creator's actor, for a closure formed there).
  public init<C: Clock>(
    for interval: Duration,
    edges: DebounceEdges<Duration> = .default,
    clock: C = ContinuousClock(),
    @_inheritActorContext operation: @escaping @Sendable @isolated(any) (Argument) async throws -> Success
  ) where C.Duration == Duration {
    storage = DebouncedTaskStorage(interval: interval, edges: edges, clock: clock, operation: operation)
  }

  /// Creates an awaitable debounce of `operation`, run on the actor `owner`,
  /// which the task holds weakly.
  ///
  ///     actor Store {
  ///       private lazy var saves = DebouncedTask<String, Void>(for: .seconds(1), owner: self) { store, draft in
  ///         try await store.persist(draft)   // on the actor, which the task holds weakly
  ///       }
  ///     }
  ///
  /// - Parameters:
  ///   - interval: The quiet period that ends a burst of calls; a negative one counts as zero.
  ///   - edges: Which calls of a burst run: the last by default.
  ///   - clock: The clock that measures time; the continuous clock by default.
  ///   - owner: The actor the operation runs on. Once it is gone, a call that
  ///     would run gets `CancellationError`.
  ///   - operation: The work, with the owner isolated.
  public init<C: Clock, Owner: Actor>(
    for interval: Duration,
    edges: DebounceEdges<Duration> = .default,
    clock: C = ContinuousClock(),
    owner: Owner,
    operation: @escaping @Sendable (isolated Owner, Argument) async throws -> Success
  ) where C.Duration == Duration {
    let owner = WeakReference(owner)
    storage = DebouncedTaskStorage(interval: interval, edges: edges, clock: clock) { argument in
      guard let owner = owner.object else { throw CancellationError() }
      return try await operation(owner, argument)
    }
  }

  /// Creates an awaitable debounce of `operation`, run with `owner`, which
  /// the task holds weakly: a `@MainActor` model passes itself.
  ///
  ///     @MainActor @Observable final class Editor {
  ///       @ObservationIgnored
  ///       private lazy var saves = DebouncedTask<String, Void>(for: .seconds(1), owner: self) { editor, draft in
  ///         try await editor.persist(draft)   // on the main actor
  ///       }
  ///     }
  ///
  /// - Parameters:
  ///   - interval: The quiet period that ends a burst of calls; a negative one counts as zero.
  ///   - edges: Which calls of a burst run: the last by default.
  ///   - clock: The clock that measures time; the continuous clock by default.
  ///   - owner: The object the operation receives. Once it is gone, a call
  ///     that would run gets `CancellationError`.
  ///   - operation: The work, run in a task of its own on its isolation (the
  ///     creator's actor, for a closure formed there).
  public init<C: Clock, Owner: AnyObject & Sendable>(
    for interval: Duration,
    edges: DebounceEdges<Duration> = .default,
    clock: C = ContinuousClock(),
    owner: Owner,
    @_inheritActorContext operation: @escaping @Sendable @isolated(any) (Owner, Argument) async throws -> Success
  ) where C.Duration == Duration {
    let owner = WeakReference(owner)
    storage = DebouncedTaskStorage(interval: interval, edges: edges, clock: clock) { argument in
      guard let owner = owner.object else { throw CancellationError() }
      return try await operation(owner, argument)
    }
  }

  deinit {
    storage.cancel(shutDown: true)
  }

  /// Whether a call waits for the quiet period.
  public var isPending: Bool {
    storage.isPending
  }

  /// Whether the operation runs for a caller that still waits for it.
  public var isRunning: Bool {
    storage.isRunning
  }

  /// Returns once `count` calls have reached the policy since the task was
  /// created (whatever became of them); for tests, not API.
  package func waitUntil(calls count: Int) async {
    await storage.waitUntil(calls: count)
  }

  /// Waits for the quiet period, then runs the operation with `argument`,
  /// unless a newer call supersedes it.
  ///
  ///     let hits = try await search.run("swift")
  ///
  /// - Parameters:
  ///   - argument: What the operation runs with, if this call is the
  ///     latest of its burst.
  ///   - isolation: The caller's actor, where the call reaches the policy
  ///     before any suspension, so that calls made on one actor keep their
  ///     order. Leave it to its default.
  /// - Returns: What the operation returned for `argument`.
  /// - Throws: What the operation threw, or `CancellationError` when the
  ///   call was superseded, dropped or cancelled.
  public func run(_ argument: Argument, isolation: isolated (any Actor)? = #isolation) async throws -> Success {
    try await withCall(storage, argument, isolation: isolation)
  }

  /// Cancels every call: the pending one never runs, the running one's
  /// operation is cancelled; their callers get `CancellationError`.
  public func cancel() {
    storage.cancel()
  }
}
