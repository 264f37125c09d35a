//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

extension KeyedPacer {
  /// A keyed pacer whose handler hands each (key, value) to a runner of the
  /// `async` handler, with an on-busy answer per key; the runner is shut
  /// down when the keyed pacer goes.
  convenience init<C: Clock>(
    machine: Machine, clock: C, onBusy: OnBusy, call: @escaping KeyedAsyncHandlerRunner<Key, Value>.Call
  ) where C.Duration == Duration {
    let lifetime = KeyedAsyncHandlerLifetime(KeyedAsyncHandlerRunner(onBusy: onBusy, call: call))
    // Inline: handing a value in takes a lock and may start a task; it never
    // waits for the handler, so it can run on the timer's thread. Once the
    // runs stop for good (the handler's owner is gone), the keyed pacer
    // shuts down as it does when a plain handler's owner goes.
    self.init(
      machine: machine, clock: clock, delivery: .inline,
      handler: .owned(
        isolation: { lifetime.runner.isShutDown ? nil : .some(nil) },
        call: { _, pair in lifetime.runner.requested(pair) }))
  }

  /// Creates a keyed pacer whose handler is `async`; `onBusy` says, for each
  /// key, what a value its policy emits does while the handler still runs
  /// for an earlier value of the same key. Keys never wait for one another.
  /// The handler runs on the isolation it was created in.
  ///
  ///     // Autosave per document: never two saves of one document at once,
  ///     // always one after its last edit; documents save side by side.
  ///     let autosave = KeyedPacer(.debounce(for: .seconds(1)), onBusy: .queue) { (document: UUID, text: String) in
  ///       try? await store.save(text, for: document)
  ///     }
  ///
  /// - Parameters:
  ///   - machine: The policy of each key, as for ``Pacer``.
  ///   - clock: The clock that measures time; the continuous clock by default.
  ///   - onBusy: What a key's value does while the handler runs for that key:
  ///     ``OnBusy/queue``, ``OnBusy/drop`` or ``OnBusy/restart``, as for a ``Pacer``.
  ///   - handler: Called with the key and each value, in a task of its own, on the creator's isolation.
  public convenience init<C: Clock>(
    _ machine: Machine,
    clock: C = ContinuousClock(),
    onBusy: OnBusy,
    @_inheritActorContext handler: @escaping @Sendable @isolated(any) (Key, Value) async -> Void
  ) where C.Duration == Duration {
    self.init(machine: machine, clock: clock, onBusy: onBusy, call: { key, value in await handler(key, value); return true })
  }

  /// Creates a keyed pacer whose `async` handler runs on the actor that owns
  /// it, with the actor as an `isolated` parameter, held weakly; `onBusy`
  /// applies per key.
  ///
  ///     actor Uploads {
  ///       private lazy var perDevice = KeyedPacer(.throttle(for: .seconds(5)), onBusy: .drop, owner: self) {
  ///         (uploads, device: Int, reading: Double) in await uploads.send(reading, from: device)
  ///       }
  ///       func send(_ reading: Double, from device: Int) async { /* … */ }
  ///     }
  ///
  /// - Parameters:
  ///   - machine: The policy of each key, as for ``Pacer``.
  ///   - clock: The clock that measures time; the continuous clock by default.
  ///   - onBusy: What a key's value does while the handler runs for that key.
  ///   - owner: The actor the handler runs on; held weakly.
  ///   - handler: Called with the owner, the key and each value.
  public convenience init<C: Clock, Owner: Actor>(
    _ machine: Machine,
    clock: C = ContinuousClock(),
    onBusy: OnBusy,
    owner: Owner,
    handler: @escaping @Sendable (isolated Owner, Key, Value) async -> Void
  ) where C.Duration == Duration {
    let owner = WeakReference(owner)
    self.init(
      machine: machine, clock: clock, onBusy: onBusy,
      call: { key, value in await owner.ifPresent { owner in await handler(owner, key, value) } })
  }

  /// Creates a keyed pacer whose `async` handler receives the object that
  /// owns it, held weakly: a `@MainActor` model passes itself, and the
  /// handler runs on the main actor; `onBusy` applies per key.
  ///
  ///     @MainActor final class Editor {
  ///       private lazy var saves = KeyedPacer(.debounce(for: .seconds(1)), onBusy: .restart, owner: self) {
  ///         (editor: Editor, file: String, text: String) in await editor.write(text, to: file)
  ///       }
  ///       func write(_ text: String, to file: String) async { /* … */ }
  ///     }
  ///
  /// - Parameters:
  ///   - machine: The policy of each key, as for ``Pacer``.
  ///   - clock: The clock that measures time; the continuous clock by default.
  ///   - onBusy: What a key's value does while the handler runs for that key.
  ///   - owner: The object the handler receives; held weakly.
  ///   - handler: Called with the owner, the key and each value, on its isolation.
  public convenience init<C: Clock, Owner: AnyObject & Sendable>(
    _ machine: Machine,
    clock: C = ContinuousClock(),
    onBusy: OnBusy,
    owner: Owner,
    @_inheritActorContext handler: @escaping @Sendable @isolated(any) (Owner, Key, Value) async -> Void
  ) where C.Duration == Duration {
    let owner = WeakReference(owner)
    self.init(
      machine: machine, clock: clock, onBusy: onBusy,
      call: { key, value in await owner.ifPresent { owner in await handler(owner, key, value) } })
  }
}
