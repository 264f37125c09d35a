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

  /// Creates a pacer whose handler is `async`; `onBusy` says what a value the
  /// policy emits does while the handler still runs for an earlier one. The
  /// handler runs on the isolation it was created in.
  ///
  ///     // Autosave: a second after the last edit; never two saves at once,
  ///     // and always one save after the last edit.
  ///     let autosave = Pacer(.debounce(for: .seconds(1)), onBusy: .queue) { (draft: String) in
  ///       try? await store.save(draft)
  ///     }
  ///
  /// - Parameters:
  ///   - machine: The policy (see ``init(_:clock:delivery:handler:)``).
  ///   - clock: The clock that measures time; the continuous clock by default.
  ///   - onBusy: What a value does while the handler runs: ``OnBusy/queue``
  ///     (run after it, only the latest; never two at once, always one run
  ///     after the last value), ``OnBusy/drop``, or ``OnBusy/restart``
  ///     (cancel the running call).
  ///   - handler: Called with each value, in a task of its own, on the creator's isolation.
  public convenience init<C: Clock>(
    _ machine: Machine,
    clock: C = ContinuousClock(),
    onBusy: OnBusy,
    @_inheritActorContext handler: @escaping @Sendable @isolated(any) (Value) async -> Void
  ) where C.Duration == Duration {
    self.init(machine: machine, clock: clock, onBusy: onBusy, call: { value in await handler(value); return true })
  }

  /// Creates a pacer whose `async` handler runs on the actor that owns it,
  /// with the actor as an `isolated` parameter, which the pacer holds weakly;
  /// `onBusy` says what a value does while the handler still runs.
  ///
  ///     actor Telemetry {
  ///       private lazy var uploads = Pacer(.throttle(for: .seconds(5)), onBusy: .drop, owner: self) {
  ///         (telemetry, count: Int) in await telemetry.upload(count)
  ///       }
  ///       func upload(_ count: Int) async { /* … */ }
  ///     }
  ///
  /// - Parameters:
  ///   - machine: The policy (see ``init(_:clock:delivery:handler:)``).
  ///   - clock: The clock that measures time; the continuous clock by default.
  ///   - onBusy: What a value does while the handler runs (see ``init(_:clock:onBusy:handler:)``).
  ///   - owner: The actor the handler runs on; held weakly.
  ///   - handler: Called with the owner and each value, in a task of its own.
  public convenience init<C: Clock, Owner: Actor>(
    _ machine: Machine,
    clock: C = ContinuousClock(),
    onBusy: OnBusy,
    owner: Owner,
    handler: @escaping @Sendable (isolated Owner, Value) async -> Void
  ) where C.Duration == Duration {
    let owner = WeakReference(owner)
    self.init(
      machine: machine, clock: clock, onBusy: onBusy,
      call: { value in await owner.ifPresent { owner in await handler(owner, value) } })
  }

  /// Creates a pacer whose `async` handler gets the object that owns it (a
  /// main-actor model, any `Sendable` class), held weakly, and runs on its
  /// own isolation; `onBusy` says what a value does while the handler still runs.
  ///
  ///     @MainActor final class Editor {
  ///       var lastSaved = ""
  ///       private lazy var autosave = Pacer(.debounce(for: .seconds(1)), onBusy: .restart, owner: self) {
  ///         @MainActor (editor, draft: String) in
  ///         if (try? await api.save(draft)) != nil { editor.lastSaved = draft }
  ///       }
  ///     }
  ///
  /// - Parameters:
  ///   - machine: The policy (see ``init(_:clock:delivery:handler:)``).
  ///   - clock: The clock that measures time; the continuous clock by default.
  ///   - onBusy: What a value does while the handler runs (see ``init(_:clock:onBusy:handler:)``).
  ///   - owner: The object handed to the handler; held weakly.
  ///   - handler: Called with the owner and each value, in a task of its own, on its isolation.
  public convenience init<C: Clock, Owner: AnyObject & Sendable>(
    _ machine: Machine,
    clock: C = ContinuousClock(),
    onBusy: OnBusy,
    owner: Owner,
    @_inheritActorContext handler: @escaping @Sendable @isolated(any) (Owner, Value) async -> Void
  ) where C.Duration == Duration {
    let owner = WeakReference(owner)
    self.init(
      machine: machine, clock: clock, onBusy: onBusy,
      call: { value in await owner.ifPresent { owner in await handler(owner, value) } })
  }
}
