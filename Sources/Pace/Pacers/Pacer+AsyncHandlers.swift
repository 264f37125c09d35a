//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//


extension Pacer {
  /// A pacer whose handler hands each emitted value to a runner of the
  /// `async` handler; the runner is shut down when the pacer goes.
  convenience init<C: Clock>(
    machine: Machine, clock: C, onBusy: OnBusy, call: @escaping AsyncHandlerRunner<Value>.Call
  ) where C.Duration == Duration {
    let lifetime = AsyncHandlerLifetime(AsyncHandlerRunner(onBusy: onBusy, call: call))
    // Inline: handing a value in takes a lock and may start a task; it never
    // waits for the handler, so it can run on the timer's thread.
    self.init(
      machine: machine, clock: clock, delivery: .inline,
      handler: .isolated { value in lifetime.runner.requested(value) })
  }

  /// Creates a debouncer whose handler is `async`; `onBusy` says what a value
  /// the policy emits does while the handler still runs for an earlier one.
  /// The handler runs on the isolation it was created in.
  ///
  ///     // Autosave: a second after the last edit; never two saves at once,
  ///     // and always one save after the last edit.
  ///     let autosave = Debouncer<String>(for: .seconds(1), onBusy: .queue) { draft in
  ///       try? await store.save(draft)
  ///     }
  ///
  /// - Parameters:
  ///   - interval: The quiet period that ends a burst; a negative one counts as zero.
  ///   - edges: Which values of a burst the handler gets: the last by default.
  ///   - clock: The clock that measures time; the continuous clock by default.
  ///   - onBusy: What a value does while the handler runs: ``OnBusy/queue``
  ///     (run after it, only the latest; never two at once, always one run
  ///     after the last value), ``OnBusy/drop``, or ``OnBusy/restart``
  ///     (cancel the running call). ``OnBusy/share`` and ``OnBusy/signal``
  ///     drop the value, as a handler has no result to share.
  ///   - handler: Called with each value, in a task of its own, on the creator's isolation.
  public convenience init<V, C: Clock>(
    for interval: Duration,
    edges: DebounceEdges<Duration> = .default,
    clock: C = ContinuousClock(),
    onBusy: OnBusy,
    @_inheritActorContext handler: @escaping @Sendable @isolated(any) (V) async -> Void
  ) where C.Duration == Duration, Machine == DebounceStateMachine<V, DriverInstant> {
    self.init(
      machine: DebounceStateMachine(interval: DriverDuration(interval), edges: edges.map(DriverDuration.init)), clock: clock,
      onBusy: onBusy, call: { value in await handler(value); return true })
  }

  /// Creates a debouncer whose `async` handler runs on the actor that owns
  /// it, with the actor as an `isolated` parameter, which the pacer holds
  /// weakly; `onBusy` says what a value does while the handler still runs.
  ///
  ///     actor DraftStore {
  ///       private lazy var saves = Debouncer<String>(for: .seconds(1), onBusy: .queue, owner: self) {
  ///         store, draft in await store.save(draft)
  ///       }
  ///       func save(_ draft: String) async { /* … */ }
  ///     }
  ///
  /// - Parameters:
  ///   - interval: The quiet period that ends a burst; a negative one counts as zero.
  ///   - edges: Which values of a burst the handler gets: the last by default.
  ///   - clock: The clock that measures time; the continuous clock by default.
  ///   - onBusy: What a value does while the handler runs (see ``OnBusy``).
  ///   - owner: The actor the handler runs on; held weakly.
  ///   - handler: Called with the owner and each value, in a task of its own.
  public convenience init<V, C: Clock, Owner: Actor>(
    for interval: Duration,
    edges: DebounceEdges<Duration> = .default,
    clock: C = ContinuousClock(),
    onBusy: OnBusy,
    owner: Owner,
    handler: @escaping @Sendable (isolated Owner, V) async -> Void
  ) where C.Duration == Duration, Machine == DebounceStateMachine<V, DriverInstant> {
    let owner = WeakReference(owner)
    self.init(
      machine: DebounceStateMachine(interval: DriverDuration(interval), edges: edges.map(DriverDuration.init)), clock: clock, onBusy: onBusy,
      call: { value in
        guard let owner = owner.object else { return false }
        await handler(owner, value)
        return true
      })
  }

  /// Creates a debouncer whose `async` handler gets the object that owns it (a
  /// main-actor model, any `Sendable` class), held weakly, and runs on its
  /// own isolation; `onBusy` says what a value does while the handler still runs.
  ///
  ///     @MainActor final class Editor {
  ///       var lastSaved = ""
  ///       private lazy var autosave = Debouncer<String>(for: .seconds(1), onBusy: .restart, owner: self) {
  ///         @MainActor editor, draft in
  ///         if (try? await api.save(draft)) != nil { editor.lastSaved = draft }
  ///       }
  ///     }
  ///
  /// - Parameters:
  ///   - interval: The quiet period that ends a burst; a negative one counts as zero.
  ///   - edges: Which values of a burst the handler gets: the last by default.
  ///   - clock: The clock that measures time; the continuous clock by default.
  ///   - onBusy: What a value does while the handler runs (see ``OnBusy``).
  ///   - owner: The object handed to the handler; held weakly.
  ///   - handler: Called with the owner and each value, in a task of its own, on its isolation.
  public convenience init<V, C: Clock, Owner: AnyObject & Sendable>(
    for interval: Duration,
    edges: DebounceEdges<Duration> = .default,
    clock: C = ContinuousClock(),
    onBusy: OnBusy,
    owner: Owner,
    @_inheritActorContext handler: @escaping @Sendable @isolated(any) (Owner, V) async -> Void
  ) where C.Duration == Duration, Machine == DebounceStateMachine<V, DriverInstant> {
    let owner = WeakReference(owner)
    self.init(
      machine: DebounceStateMachine(interval: DriverDuration(interval), edges: edges.map(DriverDuration.init)), clock: clock, onBusy: onBusy,
      call: { value in
        guard let owner = owner.object else { return false }
        await handler(owner, value)
        return true
      })
  }
}

extension Pacer {
  /// Creates a throttler whose handler is `async`; `onBusy` says what a value
  /// the policy emits does while the handler still runs for an earlier one.
  /// The handler runs on the isolation it was created in.
  ///
  ///     // Sync at most every 5 s; a sync still running makes the next one wait.
  ///     let sync = Throttler<Void>(for: .seconds(5), onBusy: .queue) { try? await client.sync() }
  ///
  /// - Parameters:
  ///   - interval: The shortest time between two calls; a negative one counts as zero.
  ///   - edges: Which values the handler gets: leading and trailing by default.
  ///   - clock: The clock that measures time; the continuous clock by default.
  ///   - onBusy: What a value does while the handler runs: ``OnBusy/queue``
  ///     (run after it, only the latest; never two at once, always one run
  ///     after the last value), ``OnBusy/drop``, or ``OnBusy/restart``
  ///     (cancel the running call). ``OnBusy/share`` and ``OnBusy/signal``
  ///     drop the value, as a handler has no result to share.
  ///   - handler: Called with each value, in a task of its own, on the creator's isolation.
  public convenience init<V, C: Clock>(
    for interval: Duration,
    edges: ThrottleEdges = .default,
    clock: C = ContinuousClock(),
    onBusy: OnBusy,
    @_inheritActorContext handler: @escaping @Sendable @isolated(any) (V) async -> Void
  ) where C.Duration == Duration, Machine == ThrottleStateMachine<V, DriverInstant> {
    self.init(
      machine: ThrottleStateMachine(interval: DriverDuration(interval), edges: edges), clock: clock,
      onBusy: onBusy, call: { value in await handler(value); return true })
  }

  /// Creates a throttler whose `async` handler runs on the actor that owns
  /// it, with the actor as an `isolated` parameter, which the pacer holds
  /// weakly; `onBusy` says what a value does while the handler still runs.
  ///
  ///     actor Telemetry {
  ///       private lazy var uploads = Throttler<Int>(for: .seconds(5), onBusy: .drop, owner: self) {
  ///         telemetry, count in await telemetry.upload(count)
  ///       }
  ///       func upload(_ count: Int) async { /* … */ }
  ///     }
  ///
  /// - Parameters:
  ///   - interval: The shortest time between two calls; a negative one counts as zero.
  ///   - edges: Which values the handler gets: leading and trailing by default.
  ///   - clock: The clock that measures time; the continuous clock by default.
  ///   - onBusy: What a value does while the handler runs (see ``OnBusy``).
  ///   - owner: The actor the handler runs on; held weakly.
  ///   - handler: Called with the owner and each value, in a task of its own.
  public convenience init<V, C: Clock, Owner: Actor>(
    for interval: Duration,
    edges: ThrottleEdges = .default,
    clock: C = ContinuousClock(),
    onBusy: OnBusy,
    owner: Owner,
    handler: @escaping @Sendable (isolated Owner, V) async -> Void
  ) where C.Duration == Duration, Machine == ThrottleStateMachine<V, DriverInstant> {
    let owner = WeakReference(owner)
    self.init(
      machine: ThrottleStateMachine(interval: DriverDuration(interval), edges: edges), clock: clock, onBusy: onBusy,
      call: { value in
        guard let owner = owner.object else { return false }
        await handler(owner, value)
        return true
      })
  }

  /// Creates a throttler whose `async` handler gets the object that owns it (a
  /// main-actor model, any `Sendable` class), held weakly, and runs on its
  /// own isolation; `onBusy` says what a value does while the handler still runs.
  ///
  ///     @MainActor final class FeedModel {
  ///       var items: [String] = []
  ///       private lazy var refresh = Throttler<Void>(for: .seconds(2), onBusy: .drop, owner: self) {
  ///         @MainActor model, _ in model.items = (try? await api.feed()) ?? model.items
  ///       }
  ///     }
  ///
  /// - Parameters:
  ///   - interval: The shortest time between two calls; a negative one counts as zero.
  ///   - edges: Which values the handler gets: leading and trailing by default.
  ///   - clock: The clock that measures time; the continuous clock by default.
  ///   - onBusy: What a value does while the handler runs (see ``OnBusy``).
  ///   - owner: The object handed to the handler; held weakly.
  ///   - handler: Called with the owner and each value, in a task of its own, on its isolation.
  public convenience init<V, C: Clock, Owner: AnyObject & Sendable>(
    for interval: Duration,
    edges: ThrottleEdges = .default,
    clock: C = ContinuousClock(),
    onBusy: OnBusy,
    owner: Owner,
    @_inheritActorContext handler: @escaping @Sendable @isolated(any) (Owner, V) async -> Void
  ) where C.Duration == Duration, Machine == ThrottleStateMachine<V, DriverInstant> {
    let owner = WeakReference(owner)
    self.init(
      machine: ThrottleStateMachine(interval: DriverDuration(interval), edges: edges), clock: clock, onBusy: onBusy,
      call: { value in
        guard let owner = owner.object else { return false }
        await handler(owner, value)
        return true
      })
  }
}
