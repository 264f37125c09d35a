//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// Paces each key on its own: one policy per key, every key behaving exactly
/// as a ``Pacer`` of its own, all of them on one timer, with state for live
/// keys only.
///
/// ```swift
/// // Autosave per document: each document's edits settle on their own.
/// let autosave = KeyedPacer(.debounce(for: .seconds(1))) { (document: UUID, text: String) in
///   store.save(text, for: document)
/// }
/// autosave.send(text, for: documentID)
/// ```
///
/// - The key is given with each value (``send(_:for:)``). One key's burst
///   never delays, cancels or flushes another's value.
/// - The policy is a value, as for a ``Pacer``: each key starts with a copy
///   of it. Any ``PacingStateMachine`` can be keyed: a debounce, a throttle,
///   stages, or one of your own.
/// - A key's state goes as soon as keeping it can no longer change any
///   output (its policy is ``PacingStateMachine/isDiscardable`` and nothing
///   of it waits): a debounced key when its burst ends, a throttled key when
///   its window ends. Memory follows the live keys, with no sweep to call.
///   A policy that remembers what it saw (`distinct`, `skip`, `take`) keeps
///   each key it has seen.
/// - The handler runs as a pacer's does: on its isolation, one call at a
///   time, never under a lock; each key's values in the order its policy
///   emitted them.
public final class KeyedPacer<Key: Hashable & Sendable, Machine: PacingStateMachine & Sendable>: Sendable
where Machine.Instant == DriverInstant, Machine.Value: Sendable {
  public typealias Value = Machine.Value

  @usableFromInline let storage: KeyedPacerStorage<Key, Machine, LazyTimerHeap>

  init<C: Clock>(machine: Machine, clock: C, delivery: PacerDelivery, handler: PacerHandler<KeyedValue<Key, Value>>)
  where C.Duration == Duration {
    storage = KeyedPacerStorage(prototype: machine, clock: clock, delivery: delivery, handler: handler)
  }

  deinit {
    storage.shutDown(keepingEmitted: true)
  }

  /// Creates a keyed pacer that runs a copy of `machine` for each key; the
  /// handler runs on the isolation it was created in.
  ///
  ///     let notify = KeyedPacer(.throttle(for: .seconds(600), edges: .leading)) { (user: Int, alert: String) in
  ///       send(alert, to: user)   // at most one per user every ten minutes
  ///     }
  ///
  /// - Parameters:
  ///   - machine: The policy of each key, as for ``Pacer``.
  ///   - clock: The clock that measures time; the continuous clock by default.
  ///   - delivery: Where a timer's emissions run the handler: off the timer's thread by default.
  ///   - handler: Called with the key and each value its policy emits.
  public convenience init<C: Clock>(
    _ machine: Machine,
    clock: C = ContinuousClock(),
    delivery: PacerDelivery = .separate,
    @_inheritActorContext handler: @escaping @Sendable @isolated(any) (Key, Value) -> Void
  ) where C.Duration == Duration {
    let isolation = handler.isolation
    self.init(
      machine: machine, clock: clock, delivery: delivery,
      handler: .owned(isolation: { .some(isolation) }, call: { _, pair in await handler(pair.key, pair.value); return true }))
  }

  /// Creates a keyed pacer for an actor that owns it: the handler runs on
  /// the actor, with the actor as an `isolated` parameter, held weakly.
  ///
  ///     actor Documents {
  ///       private lazy var saves = KeyedPacer(.debounce(for: .seconds(1)), owner: self) {
  ///         (documents, id: Int, text: String) in documents.persist(text, for: id)
  ///       }
  ///       func persist(_ text: String, for id: Int) { /* … */ }
  ///     }
  ///
  /// - Parameters:
  ///   - machine: The policy of each key, as for ``Pacer``.
  ///   - clock: The clock that measures time; the continuous clock by default.
  ///   - delivery: Where a timer's emissions run the handler: off the timer's thread by default.
  ///   - owner: The actor the handler runs on; held weakly.
  ///   - handler: Called with the owner, the key and each value its policy emits.
  public convenience init<C: Clock, Owner: Actor>(
    _ machine: Machine,
    clock: C = ContinuousClock(),
    delivery: PacerDelivery = .separate,
    owner: Owner,
    handler: @escaping @Sendable (isolated Owner, Key, Value) -> Void
  ) where C.Duration == Duration {
    self.init(
      machine: machine, clock: clock, delivery: delivery,
      handler: .owned(by: owner) { owner, pair in handler(owner, pair.key, pair.value) })
  }

  /// Creates a keyed pacer for an object that owns it, held weakly: a
  /// `@MainActor` model passes itself, and the handler runs on the main actor.
  ///
  ///     @MainActor final class Inbox {
  ///       private lazy var marks = KeyedPacer(.debounce(for: .milliseconds(500)), owner: self) {
  ///         (inbox: Inbox, thread: Int, read: Bool) in inbox.markRead(thread, read)
  ///       }
  ///       func markRead(_ thread: Int, _ read: Bool) { /* … */ }
  ///     }
  ///
  /// - Parameters:
  ///   - machine: The policy of each key, as for ``Pacer``.
  ///   - clock: The clock that measures time; the continuous clock by default.
  ///   - delivery: Where a timer's emissions run the handler: off the timer's thread by default.
  ///   - owner: The object the handler receives; held weakly.
  ///   - handler: Called with the owner, the key and each value its policy emits, on its isolation.
  public convenience init<C: Clock, Owner: AnyObject & Sendable>(
    _ machine: Machine,
    clock: C = ContinuousClock(),
    delivery: PacerDelivery = .separate,
    owner: Owner,
    @_inheritActorContext handler: @escaping @Sendable @isolated(any) (Owner, Key, Value) -> Void
  ) where C.Duration == Duration {
    let reference = WeakReference(owner)
    let isolation = handler.isolation
    self.init(
      machine: machine, clock: clock, delivery: delivery,
      handler: .owned(
        isolation: { reference.object == nil ? nil : .some(isolation) },
        call: { _, pair in
          guard let owner = reference.object else { return false }
          await handler(owner, pair.key, pair.value)
          return true
        }))
  }

  /// Hands `value` to `key`'s policy. Never waits for the handler.
  @inlinable
  public func send(_ value: Value, for key: Key) {
    storage.send(value, for: key)
  }

  /// Drops what `key`'s policy holds back; a value it already emitted is
  /// still delivered. Other keys are not touched.
  @inlinable
  public func cancel(key: Key) {
    storage.cancel(key: key)
  }

  /// Emits what `key`'s policy holds back, now (a debounce's pending value).
  @inlinable
  public func flush(key: Key) {
    storage.flush(key: key)
  }

  /// ``cancel(key:)`` for every key.
  @inlinable
  public func cancelAll() {
    storage.cancelAll()
  }

  /// ``flush(key:)`` for every key: on shutdown, nothing pending is lost.
  @inlinable
  public func flushAll() {
    storage.flushAll()
  }

  /// Whether a value of `key` waits: in its policy, or emitted and not yet
  /// handled. (While a million values wait for the handler, it looks
  /// through them.)
  @inlinable
  public func isPending(key: Key) -> Bool {
    storage.isPending(key: key)
  }

  /// The number of keys whose policy holds a value back; a value already
  /// emitted and waiting for the handler is not counted (``isPending(key:)``
  /// counts it). Kept as keys change: reading it costs no scan.
  @inlinable
  public var pendingCount: Int {
    storage.pendingCount
  }

  /// The number of keys with state; for tests, not API.
  package var liveKeyCount: Int {
    storage.liveKeyCount
  }

  /// The room the storage holds for keys; for tests, not API.
  package var capacity: (slots: Int, buckets: Int, timers: Int, outbox: Int) {
    storage.capacity
  }
}
