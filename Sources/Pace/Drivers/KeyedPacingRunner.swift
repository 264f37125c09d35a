//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// Runs a policy per key from a loop of your own, as ``PacingRunner`` runs
/// one: on one thread, with no timer, no lock and no task. Each key behaves
/// exactly as a runner of its own, made from a copy of the policy you give.
///
/// `pace --by` drives its keys with it. The order of events is the
/// runner's, over all keys:
///
/// - Timers due before an input fire before it, each at its own deadline,
///   the earliest first, whatever their keys.
/// - Inputs at one instant come first, then the timers due at that instant.
/// - Timers due at the same instant fire in the order their deadlines were
///   set: a key whose deadline an input moved comes after the keys whose
///   deadlines stood. (A key due again at the instant it fired fires again
///   at once.)
/// - ``finish(at:_:)`` and ``fail(at:_:)`` tell the live keys in the order
///   they became live.
///
/// A key is made live by its first value: its policy is a copy of the
/// prototype, started at that instant. It goes as soon as keeping it can no
/// longer change any output: its policy is
/// ``PacingStateMachine/isDiscardable`` with nothing pending and no
/// deadline (a debounced key when its burst ends, a throttled key when its
/// window ends), or it has terminated after the end of the input. A key
/// whose policy has terminated before then (a `take`) is kept, so that it
/// stays finished. State follows the live keys, with no sweep to call.
///
/// ```swift
/// var runner = KeyedPacingRunner<String, DebounceStateMachine<String, ContinuousClock.Instant>>(
///   DebounceStateMachine(interval: .milliseconds(300)))
/// let now = ContinuousClock.now
/// runner.send("draft 1", for: "doc-a", at: now) { key, event, instant in print(key, event) }
/// runner.send("draft 7", for: "doc-b", at: now) { key, event, instant in print(key, event) }
/// // Later, when `runner.deadline` has passed:
/// runner.fireTimers(through: ContinuousClock.now) { key, event, _ in print(key, event) }
/// // doc-a .value("draft 1"), then doc-b .value("draft 7")
/// ```
public struct KeyedPacingRunner<Key: Hashable, Machine: PacingStateMachine> {
  public typealias Value = Machine.Value
  public typealias Instant = Machine.Instant
  /// What the runner hands out: the key, one of its events, and the instant it was due.
  public typealias Emit = (Key, PacingEvent<Value>, Instant) -> Void

  /// One live key: its runner, and where it stands in the deadline order.
  @usableFromInline
  struct KeyState {
    @usableFromInline var runner: PacingRunner<Machine>
    /// The runner's deadline as last seen, and the order in which it was set.
    @usableFromInline var deadline: Instant?
    @usableFromInline var deadlineOrder: UInt64 = 0
    /// The key's current entry in the queue, if any: at or before its deadline.
    @usableFromInline var queued: (deadline: Instant, order: UInt64)?
    /// When the key became live, for the order of the finish.
    @usableFromInline let liveOrder: UInt64

    @inlinable
    init(runner: PacingRunner<Machine>, liveOrder: UInt64) {
      self.runner = runner
      self.liveOrder = liveOrder
    }

    /// Takes note of the runner's deadline after an event; returns the entry
    /// to queue when it is due before the queued one, or none is queued. A
    /// deadline that moved later leaves the queued entry alone: when it comes
    /// up, the key is queued again (the hot path of a debounce queues nothing).
    @inlinable
    mutating func followDeadline(_ nextOrder: inout UInt64) -> (deadline: Instant, order: UInt64)? {
      let current = runner.deadline
      if current != deadline {
        deadline = current
        deadlineOrder = nextOrder
        nextOrder &+= 1
      }
      guard let current, queued.map({ current < $0.deadline }) ?? true else { return nil }
      queued = (current, deadlineOrder)
      return queued
    }

    /// Whether dropping the key now could change no output.
    @inlinable
    func isRemovable(inputEnded: Bool) -> Bool {
      if runner.terminated { return inputEnded }
      return runner.policy.deadline == nil && !runner.policy.hasPendingValue && runner.policy.isDiscardable
    }
  }

  /// The policy each new key starts with a copy of.
  @usableFromInline let prototype: Machine
  @usableFromInline var keys: [Key: KeyState] = [:]
  /// Every live key with a deadline has an entry at or before it. Kept so
  /// that the first entry is always a key's exact deadline.
  @usableFromInline var queue = KeyDeadlineQueue<Key, Instant>()
  /// The next order number: deadlines set and keys made live, counted.
  @usableFromInline var nextOrder: UInt64 = 0
  @usableFromInline var inputEnded = false

  /// Creates a runner that gives each key a copy of `prototype`.
  public init(_ prototype: Machine) {
    self.prototype = prototype
  }

  /// When the runner next needs ``fireTimers(through:_:)``: the earliest
  /// deadline over all keys, or nil when nothing is due, ever, without a new input.
  @inlinable
  public var deadline: Instant? { queue.first?.deadline }

  /// Whether the input has finished or failed (later inputs are ignored),
  /// and every key's output has ended with it.
  public var isTerminated: Bool { inputEnded && keys.isEmpty }

  /// The policy of `key` as the events so far have left it, or nil when the
  /// key is not live (never seen, or dropped as a new one would behave the same).
  public func machine(for key: Key) -> Machine? {
    keys[key]?.runner.policy
  }

  /// How many keys hold state.
  package var liveKeyCount: Int { keys.count }

  /// Hands `key`'s policy a value that arrived at `now`, after firing the
  /// timers (of every key) due before it.
  @inlinable
  public mutating func send(_ value: Value, for key: Key, at now: Instant, _ emit: Emit) {
    fireTimers(before: now, emit)
    guard !inputEnded else { return }
    let index: [Key: KeyState].Index
    if let live = keys.index(forKey: key) {
      index = live
    } else {
      var runner = PacingRunner(prototype)
      runner.start(at: now) { emit(key, $0, $1) }
      keys[key] = KeyState(runner: runner, liveOrder: nextOrder)
      nextOrder &+= 1
      index = keys.index(forKey: key)!
    }
    keys.values[index].runner.send(value, at: now) { emit(key, $0, $1) }
    settle(key, at: index)
    settleQueue()
  }

  /// Ends the input at `now` for every live key, after firing the timers due
  /// before it: each policy's finish rules apply (a debounce flushes at
  /// once, a throttle keeps its rate). A key that is not live is not told:
  /// a new policy would only finish.
  @inlinable
  public mutating func finish(at now: Instant, _ emit: Emit) {
    endInput(at: now, failing: false, emit)
  }

  /// Fails the input at `now` for every live key, after firing the timers
  /// due before it: what is pending is dropped.
  @inlinable
  public mutating func fail(at now: Instant, _ emit: Emit) {
    endInput(at: now, failing: true, emit)
  }

  /// Fires, in order and each at its own deadline, the timers of every key
  /// due strictly before `now`.
  @inlinable
  public mutating func fireTimers(before now: Instant, _ emit: Emit) {
    while let deadline, deadline < now {
      fireFirst(emit)
    }
  }

  /// Fires, in order and each at its own deadline, the timers of every key
  /// due at or before `now`: call it after the inputs of `now`, or when the
  /// loop wakes at the ``deadline``.
  @inlinable
  public mutating func fireTimers(through now: Instant, _ emit: Emit) {
    while let deadline, deadline <= now {
      fireFirst(emit)
    }
  }

  /// Fires every timer until none is pending: time goes on with no more
  /// input, and whatever the keys still hold comes out when it is due.
  @inlinable
  public mutating func fireAllTimers(_ emit: Emit) {
    while deadline != nil {
      fireFirst(emit)
    }
  }

  @inlinable
  mutating func endInput(at now: Instant, failing: Bool, _ emit: Emit) {
    fireTimers(before: now, emit)
    guard !inputEnded else { return }
    inputEnded = true
    let live = keys.map { ($0.key, $0.value.liveOrder) }.sorted { $0.1 < $1.1 }
    for (key, _) in live {
      guard let index = keys.index(forKey: key) else { continue }
      if failing {
        keys.values[index].runner.fail(at: now) { emit(key, $0, $1) }
      } else {
        keys.values[index].runner.finish(at: now) { emit(key, $0, $1) }
      }
      settle(key, at: index)
    }
    settleQueue()
  }

  /// Fires the key due first at its deadline.
  @inlinable
  mutating func fireFirst(_ emit: Emit) {
    let entry = queue.removeFirst()
    // The queue is settled: its first entry is its key's current one, at its deadline.
    let index = keys.index(forKey: entry.key)!
    keys.values[index].queued = nil
    keys.values[index].runner.fireTimers(through: entry.deadline) { emit(entry.key, $0, $1) }
    settle(entry.key, at: index)
    settleQueue()
  }

  /// After an event of `key`: queues its deadline if it moved earlier, and
  /// drops the key if nothing of it is left.
  @inlinable
  mutating func settle(_ key: Key, at index: [Key: KeyState].Index) {
    if let entry = keys.values[index].followDeadline(&nextOrder) {
      queue.insert(.init(deadline: entry.deadline, order: entry.order, key: key))
    }
    if keys.values[index].isRemovable(inputEnded: inputEnded) {
      keys.remove(at: index)  // Its entries, if any, are stale now: discarded when they come up.
      if queue.count > 2 &* keys.count &+ 1_024 { compactQueue() }
    }
  }

  /// Stale entries outnumber the live keys: keeps only each key's current
  /// entry, so that memory follows the live keys, not the keys ever seen.
  @usableFromInline
  mutating func compactQueue() {
    queue.replaceAll(with: keys.compactMap { key, state in
      state.queued.map { KeyDeadline(deadline: $0.deadline, order: $0.order, key: key) }
    })
  }

  /// Brings the first entry of the queue to an exact deadline: discards
  /// stale entries, and queues again a key whose deadline moved later.
  @inlinable
  mutating func settleQueue() {
    while let first = queue.first {
      guard let index = keys.index(forKey: first.key), keys.values[index].queued?.order == first.order else {
        queue.removeFirst()  // A dropped key's, or one whose deadline moved earlier since.
        continue
      }
      if keys.values[index].deadline == first.deadline { return }
      queue.removeFirst()
      keys.values[index].queued = nil
      if let entry = keys.values[index].followDeadline(&nextOrder) {
        queue.insert(.init(deadline: entry.deadline, order: entry.order, key: first.key))
      }
    }
  }
}
