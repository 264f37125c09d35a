//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Synchronization

/// A keyed driver: one policy per key, each behaving as a pacer of its own,
/// on one timer for every key, with state for live keys only.
///
/// The shell of the driver rules for many keys. Each live key has a slot
/// (``KeyedSlots``): its policy, a copy of the prototype made on its first
/// value, and the deadline its timer is armed for, followed by the rule
/// every driver follows (``ArmedDeadline``). The keys' timers are entries of
/// one ``KeyedTimerQueue``, whose earliest deadline is the one timer this
/// driver arms with its scheduler. What the policies emit goes to one
/// outbox, as (key, value), in the order it was emitted, drained by one
/// delivery at a time (as a pacer's is), so each key's values reach the
/// handler in order. A key is dropped as soon as its policy is
/// ``PacingStateMachine/isDiscardable`` and nothing of it waits: dropping it
/// cannot change any output.
///
/// Package API: the public keyed pacers are built on it.
@usableFromInline
package final class KeyedPacerStorage<
  Key: Hashable & Sendable, Machine: PacingStateMachine & Sendable, Timers: KeyedTimerQueue
>: Sendable
where Machine.Instant == DriverInstant, Machine.Value: Sendable {
  @usableFromInline package typealias Value = Machine.Value

  @usableFromInline
  struct State {
    @usableFromInline var slots = KeyedSlots<Key, Machine>()
    @usableFromInline var timers = Timers()
    /// The driver's one timer, which follows the earliest key deadline.
    @usableFromInline var armed = ArmedDeadline()
    /// Emitted and not yet delivered, oldest first from `outboxHead`: taking
    /// one moves the head, so a million values due at once drain in linear
    /// time; once the delivered part is half of it, it is cut off, so an
    /// outbox that senders keep from emptying holds only what waits.
    @usableFromInline var outbox: [(key: Key, value: Value)] = []
    @usableFromInline var outboxHead = 0
    /// The timers due at a firing, and the slots to drop after it; kept, so
    /// that a firing allocates nothing.
    @usableFromInline var due: [KeyedTimerEntry] = []
    @usableFromInline var dropped: [Int] = []
    @usableFromInline var isDelivering = false
    @usableFromInline var isShutDown = false
    /// The number of keys whose policy holds a value back, kept by `settle`.
    @usableFromInline var pendingKeys = 0
    /// How many times a key was made live (again, after it went); for tests.
    @usableFromInline var keysMade = 0

    @inlinable
    init() {}
  }

  /// The policy every key starts with.
  @usableFromInline let prototype: Machine
  @usableFromInline let scheduler: TimerScheduler
  /// The handler, in the pacers' shapes (its isolation, an owner held weakly).
  @usableFromInline let handler: PacerHandler<KeyedValue<Key, Value>>
  /// Where a timer's emissions run the handler.
  @usableFromInline let delivery: PacerDelivery
  @usableFromInline let state = LockedState(State())
  /// Where the slots' index lies (``KeyedSlots/indexLocation``), published
  /// under the lock after a change that may move it (a key came or went),
  /// read without it: a send
  /// prefetches its key's bucket before it takes the lock. At a million keys
  /// the bucket is a cache miss, and the clock read (its fence) lets no load
  /// begin before it ends, but it does not wait for a prefetch: the miss
  /// overlaps with the lock and the clock read instead of following them.
  /// A stale location costs a useless prefetch, nothing more.
  @usableFromInline let indexAddress = Atomic<UInt>(0)
  @usableFromInline let indexMask = Atomic<Int>(0)

  /// - Parameters:
  ///   - prototype: The policy of a key that has none, copied.
  ///   - clock: The clock whose scheduler holds the driver's one timer.
  ///   - handler: Receives each key's values; it runs off the lock, one call
  ///     at a time, with no isolation (on Pace's delivery threads on Linux).
  package convenience init<C: Clock>(
    prototype: Machine, clock: C, handler: @escaping @Sendable (Key, Value) -> Void
  ) where C.Duration == Duration {
    self.init(
      prototype: prototype, clock: clock, delivery: .separate,
      handler: .isolated { (pair: KeyedValue<Key, Value>) in handler(pair.key, pair.value) })
  }

  init<C: Clock>(
    prototype: Machine, clock: C, delivery: PacerDelivery, handler: PacerHandler<KeyedValue<Key, Value>>
  ) where C.Duration == Duration {
    self.prototype = prototype
    self.scheduler = makeTimerScheduler(clock)
    self.delivery = delivery
    self.handler = handler
  }

  deinit {
    if state.withLock({ $0.armed.deadline }) != nil { scheduler.disarm(ObjectIdentifier(self)) }
  }

  @inlinable
  static var fire: TimerCallback {
    { owner, onTimerThread in unsafeDowncast(owner, to: KeyedPacerStorage.self).timerFired(onTimerThread: onTimerThread) }
  }

  /// The driver's clock, now: for a measurement that sets deadlines of its own.
  package var now: DriverInstant { scheduler.now }

  /// The number of keys with state: a pending value, an open window, or a
  /// policy that remembers (distinct, skip, take).
  package var liveKeyCount: Int {
    state.withLock { $0.slots.count }
  }

  /// How many times a key was made live: more than the keys seen when keys
  /// went idle, were dropped, and came back.
  package var keysMade: Int {
    state.withLock { $0.keysMade }
  }

  /// How much the storage has room for without growing: its slots, its
  /// index's buckets and its timer entries. For the churn test: it follows
  /// the live keys.
  package var capacity: (slots: Int, buckets: Int, timers: Int, outbox: Int) {
    state.withLock { ($0.slots.capacity.slots, $0.slots.capacity.buckets, $0.timers.count, $0.outbox.capacity) }
  }

  /// The number of keys whose policy holds a value back (not counting
  /// values already emitted that wait for the handler): kept as keys change,
  /// so reading it scans nothing.
  @inlinable
  package var pendingCount: Int {
    state.withLock { $0.pendingKeys }
  }

  /// Whether `key`'s policy holds a value back, or one waits for the handler.
  @inlinable
  package func isPending(key: Key) -> Bool {
    state.withLock { state in
      if let slot = state.slots.slot(of: key), state.slots[slot].machine.hasPendingValue { return true }
      return state.outbox[state.outboxHead...].contains { $0.key == key }
    }
  }

  @inlinable
  package func send(_ value: Value, for key: Key) {
    perform(key, creating: true) { machine, now in machine.valueReceived(value, at: now) }
  }

  /// Drops what `key`'s policy holds back; a value already emitted is delivered.
  @inlinable
  package func cancel(key: Key) {
    perform(key, creating: false) { machine, now in machine.cancelled(at: now) }
  }

  /// Emits what `key`'s policy holds back, now.
  @inlinable
  package func flush(key: Key) {
    perform(key, creating: false) { machine, now in machine.flushRequested(at: now) }
  }

  /// ``cancel(key:)`` for every key.
  @inlinable
  package func cancelAll() {
    forEveryKey { machine, now in machine.cancelled(at: now) }
  }

  /// ``flush(key:)`` for every key.
  @inlinable
  package func flushAll() {
    forEveryKey { machine, now in machine.flushRequested(at: now) }
  }

  /// The driver is gone: nothing more is armed, and what every key's policy
  /// holds is dropped. What was already emitted (a flush, a leading edge, a
  /// timer that fired) is dropped too, unless `keepingEmitted`: a keyed
  /// pacer released by its user still delivers it.
  @usableFromInline
  package func shutDown(keepingEmitted: Bool = false) {
    let wasArmed = state.withLock { state -> Bool in
      state.isShutDown = true
      state.pendingKeys = 0
      state.slots.removeAll()
      publishIndex(&state)
      state.timers = Timers()
      if !keepingEmitted { (state.outbox, state.outboxHead) = ([], 0) }
      return state.armed.disarm() != nil
    }
    if wasArmed { scheduler.disarm(ObjectIdentifier(self)) }
  }

  // MARK: Events

  @inlinable
  func perform(
    _ key: Key, creating: Bool, _ event: (inout Machine, DriverInstant) -> PacingAction<Value>
  ) {
    let hash = key.hashValue
    let index = indexAddress.load(ordering: .relaxed)
    if index != 0 {
      prefetch(KeyedSlots<Key, Machine>.bucketAddress(of: hash, index: index, mask: indexMask.load(ordering: .relaxed)))
    }
    let delivers = state.withLock { state -> Bool in
      guard !state.isShutDown else { return false }
      let now = scheduler.now
      let slot: Int
      var keysChanged = false
      if let live = state.slots.find(key, hash: hash) {
        slot = live  // A live key: its policy changes in place.
      } else if creating {
        slot = state.slots.insert(key, hash: hash, machine: prototype)
        state.keysMade &+= 1
        keysChanged = true
        settle(slot, state.slots[slot].machine.started(at: now), wasPending: false, &state)
      } else {
        return false
      }
      let wasPending = state.slots[slot].machine.hasPendingValue
      if settle(slot, event(&state.slots[slot].machine, now), wasPending: wasPending, &state) {
        drop(slot, &state)
        keysChanged = true
      }
      if keysChanged { publishIndex(&state) }
      followEarliest(&state)
      return beginDelivery(&state)
    }
    if delivers { startDelivery() }
  }

  /// Publishes where the slots' index lies now, for sends to prefetch from:
  /// only when it moved, so that the line every sender reads stays shared.
  @inlinable
  func publishIndex(_ state: inout State) {
    let (address, mask) = state.slots.indexLocation
    if indexMask.load(ordering: .relaxed) != mask { indexMask.store(mask, ordering: .relaxed) }
    if indexAddress.load(ordering: .relaxed) != address { indexAddress.store(address, ordering: .relaxed) }
  }

  /// Runs `event` on every key's policy, in one hold of the lock.
  @inlinable
  func forEveryKey(_ event: (inout Machine, DriverInstant) -> PacingAction<Value>) {
    let delivers = state.withLock { state -> Bool in
      guard !state.isShutDown else { return false }
      let now = scheduler.now
      for slot in 0..<state.slots.count {
        let wasPending = state.slots[slot].machine.hasPendingValue
        if settle(slot, event(&state.slots[slot].machine, now), wasPending: wasPending, &state) { state.dropped.append(slot) }
      }
      dropCollected(&state)
      publishIndex(&state)
      followEarliest(&state)
      return beginDelivery(&state)
    }
    if delivers { startDelivery() }
  }

  /// The driver's timer fired: every key due now fires, earliest first.
  /// With inline delivery and a handler with no isolation, the timer's thread
  /// delivers at once, as a pacer's does.
  @inlinable
  func timerFired(onTimerThread: Bool) -> TimerDelivery? {
    let delivers = state.withLock { state -> Bool in
      state.armed.fired()
      guard !state.isShutDown else { return false }
      let now = scheduler.now
      // Taken out first: a key re-armed for now is not taken twice in one firing.
      state.timers.popDue(at: now.nanoseconds, into: &state.due)
      for entry in state.due {
        let slot = Int(entry.slot)
        // A stale entry (the key's timer moved, or its slot holds another key) is skipped.
        guard slot < state.slots.count, state.slots[slot].armed.nanoseconds == entry.deadline else { continue }
        state.slots[slot].armed.fired()
        let wasPending = state.slots[slot].machine.hasPendingValue
        // A policy that stalls is not re-armed before its next event (see `DriverCore`).
        guard let action = state.slots[slot].machine.driverTimerFired(at: now) else { continue }
        if settle(slot, action, wasPending: wasPending, &state) { state.dropped.append(slot) }
      }
      state.due.removeAll(keepingCapacity: state.due.capacity <= TimerHeap<Key, Void>.retainedCapacity)
      dropCollected(&state)
      publishIndex(&state)
      followEarliest(&state)
      return beginDelivery(&state)
    }
    guard delivers else { return nil }
    if onTimerThread, delivery == .inline, case .some(nil) = handler.isolation { return Self.deliverWithoutIsolation }
    startDelivery()
    return nil
  }

  /// Applies what a key's policy answered: what it emitted to the outbox,
  /// its deadline to the key's timer, whether it now holds a value back to
  /// the count of such keys; returns whether the key can be dropped now.
  @inlinable @discardableResult
  func settle(_ slot: Int, _ action: PacingAction<Value>, wasPending: Bool, _ state: inout State) -> Bool {
    let isPending = state.slots[slot].machine.hasPendingValue
    if isPending != wasPending { state.pendingKeys &+= isPending ? 1 : -1 }
    if !action.isEmpty {
      let key = state.slots[slot].key
      for case .value(let value) in action { state.outbox.append((key, value)) }
    }
    let deadline = state.slots[slot].machine.deadline
    let armedAt = state.slots[slot].armed.nanoseconds
    let command =
      Timers.followsEveryMove ? state.slots[slot].armed.move(to: deadline) : state.slots[slot].armed.follow(deadline)
    switch command {
    case .arm(let deadline)?: state.timers.arm(slot, at: deadline.nanoseconds)
    case .disarm?: state.timers.disarm(slot, at: armedAt)
    case nil: break
    }
    return !isPending && state.slots[slot].machine.isDiscardable && state.slots[slot].armed.deadline == nil
  }

  /// Drops the key in `slot`: nothing of it is left, so a new policy for its
  /// next value behaves the same. The last slot moves into its place.
  @inlinable
  func drop(_ slot: Int, _ state: inout State) {
    if let moved = state.slots.remove(at: slot) {
      state.timers.moveSlot(from: moved, to: slot, armedAt: state.slots[slot].armed.deadline?.nanoseconds)
    }
  }

  /// Drops the slots collected in `dropped`, last first, so that the slot
  /// moving into each place is never one still to drop.
  @inlinable
  func dropCollected(_ state: inout State) {
    guard !state.dropped.isEmpty else { return }
    if state.dropped.count >= 1_024, state.dropped.count &* 4 >= state.slots.count {
      // Many at once (a million keys due at one instant): one pass over the
      // slots, then the index and the timers made anew from the rest.
      state.slots.remove(slots: state.dropped)
      rebuildTimers(&state)
    } else {
      state.dropped.sort(by: >)
      for slot in state.dropped { drop(slot, &state) }
    }
    state.dropped.removeAll(keepingCapacity: state.dropped.capacity <= TimerHeap<Key, Void>.retainedCapacity)
  }

  /// Arms the driver's one timer for the earliest key deadline, by the rule
  /// every driver follows (``ArmedDeadline``); disarms it when no key waits.
  @inlinable
  func followEarliest(_ state: inout State) {
    if state.timers.count > 2 &* state.slots.count &+ 1_024 { rebuildTimers(&state) }
    let earliest = state.timers.earliestDeadline.map(DriverInstant.init(nanoseconds:))
    scheduler.follow(state.armed.follow(earliest), owner: self, fire: Self.fire)
  }

  /// Rebuilds the timer queue from the keys' armed deadlines: when stale
  /// entries outnumber the live keys (so that memory follows the live keys),
  /// or when the slots were renumbered.
  @inlinable
  func rebuildTimers(_ state: inout State) {
    var live: [KeyedTimerEntry] = []
    for slot in 0..<state.slots.count {
      if let deadline = state.slots[slot].armed.deadline { live.append(KeyedTimerEntry(deadline: deadline.nanoseconds, slot: slot)) }
    }
    state.timers.rebuild(from: live)
  }

  // MARK: Delivery

  @inlinable
  func beginDelivery(_ state: inout State) -> Bool {
    guard state.outboxHead < state.outbox.count, !state.isDelivering else { return false }
    state.isDelivering = true
    scheduler.deliveryStarted()
    return true
  }

  /// Drains the outbox on the handler's isolation, one delivery at a time,
  /// as a pacer's delivery does; when the owner is gone, the driver shuts down.
  ///
  /// Inlinable down to the loop, as a pacer's delivery is, and so is every
  /// entry that can start one (send, cancel, flush, and the timer that a
  /// send arms): compiled for the keys' and values' own types in the code
  /// that calls them, rather than as generic code that looks up the metadata
  /// of its tuples and wrappers for every value it handles (about a
  /// microsecond a value, measured with a million keys due at one instant,
  /// and six with `flushAll()` over a million keys).
  @inlinable
  func startDelivery() {
    guard let isolation = handler.isolation else {
      state.withLock { $0.isDelivering = false }
      shutDown()
      scheduler.deliveryFinished()
      return
    }
    Pace.startDelivery(of: self, isolation: isolation, delivery: Self.deliverWithoutIsolation) { storage, isolation in
      await unsafeDowncast(storage, to: KeyedPacerStorage.self).deliver(isolation: isolation)
    }
  }

  @inlinable
  static var deliverWithoutIsolation: TimerDelivery {
    { owner in await unsafeDowncast(owner, to: KeyedPacerStorage.self).deliver(isolation: nil) }
  }

  /// Drains the outbox on `isolation`, in order, one value at a time.
  @inlinable
  func deliver(isolation: isolated (any Actor)?) async {
    await deliverEach(isolation: isolation) {
      state.withLock { state -> (value: KeyedValue<Key, Value>, handler: PacerHandler<KeyedValue<Key, Value>>)? in
        // After a shut down, only what was emitted before it is left.
        guard state.outboxHead < state.outbox.count else {
          state.isDelivering = false  // Under the same lock a sender checks it: none is left behind.
          state.outbox.removeAll(keepingCapacity: state.outbox.capacity <= TimerHeap<Key, Void>.retainedCapacity)
          state.outboxHead = 0
          return nil
        }
        let (key, value) = state.outbox[state.outboxHead]
        state.outboxHead += 1
        if state.outboxHead >= 1_024, state.outboxHead &* 2 >= state.outbox.count {
          // Senders keep the outbox from emptying: what was delivered goes, in linear time overall.
          state.outbox.removeFirst(state.outboxHead)
          state.outboxHead = 0
        }
        return (KeyedValue(key: key, value: value), handler)
      }
    } ownerGone: {
      shutDown()
    }
    scheduler.deliveryFinished()
  }
}

/// A key and one of its values, as the handler of a keyed driver receives them.
@usableFromInline
package struct KeyedValue<Key: Sendable, Value: Sendable>: Sendable {
  @usableFromInline package let key: Key
  @usableFromInline package let value: Value

  @inlinable
  package init(key: Key, value: Value) {
    self.key = key
    self.value = value
  }
}
