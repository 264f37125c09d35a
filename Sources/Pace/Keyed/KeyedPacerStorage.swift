//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// A keyed driver: one policy per key, each behaving as a pacer of its own,
/// on one timer for every key, with state for live keys only.
///
/// The shell of the driver core for many keys. Each key has a
/// ``DriverCore`` made on its first value; the cores' timer commands go to
/// one ``TimerHeap`` of key deadlines, whose earliest deadline is the one
/// timer this driver arms with its scheduler. What the cores emit goes to one
/// outbox, as (key, value), in the order it was emitted, drained by one
/// delivery at a time (as a pacer's is), so each key's values reach the
/// handler in order. A key is dropped as soon as its policy is
/// ``PacingStateMachine/isDiscardable`` and nothing of it waits: dropping it
/// cannot change any output.
///
/// Package API for now: the public keyed pacers are built on it.
@usableFromInline
package final class KeyedPacerStorage<Key: Hashable & Sendable, Machine: PacingStateMachine & Sendable>: Sendable
where Machine.Instant == DriverInstant, Machine.Value: Sendable {
  @usableFromInline package typealias Value = Machine.Value

  @usableFromInline
  struct State {
    @usableFromInline var cores: [Key: DriverCore<Machine>] = [:]
    @usableFromInline var deadlines = TimerHeap<Key, Void>()
    /// The driver's one timer, which follows the earliest key deadline.
    @usableFromInline var armed = ArmedDeadline()
    /// Emitted and not yet delivered, oldest first from `outboxHead`: taking
    /// one moves the head, so a million values due at once drain in linear time.
    @usableFromInline var outbox: [(key: Key, value: Value)] = []
    @usableFromInline var outboxHead = 0
    /// The keys due at a firing; kept, so that a firing allocates nothing.
    @usableFromInline var due: [Key] = []
    @usableFromInline var isDelivering = false
    @usableFromInline var isShutDown = false

    @inlinable
    init() {}
  }

  @usableFromInline let makeMachine: @Sendable () -> Machine
  @usableFromInline let scheduler: TimerScheduler
  /// The handler, in the pacers' shapes (its isolation, an owner held weakly).
  @usableFromInline let handler: PacerHandler<KeyedValue<Key, Value>>
  /// Where a timer's emissions run the handler.
  @usableFromInline let delivery: PacerDelivery
  @usableFromInline let state = LockedState(State())

  /// - Parameters:
  ///   - makeMachine: Makes the policy of a key that has none.
  ///   - clock: The clock whose scheduler holds the driver's one timer.
  ///   - handler: Receives each key's values; it runs off the lock, one call
  ///     at a time, with no isolation (on Pace's delivery threads on Linux).
  package convenience init<C: Clock>(
    makeMachine: @escaping @Sendable () -> Machine, clock: C, handler: @escaping @Sendable (Key, Value) -> Void
  ) where C.Duration == Duration {
    self.init(
      makeMachine: makeMachine, clock: clock, delivery: .separate,
      handler: .isolated { (pair: KeyedValue<Key, Value>) in handler(pair.key, pair.value) })
  }

  init<C: Clock>(
    makeMachine: @escaping @Sendable () -> Machine, clock: C, delivery: PacerDelivery,
    handler: PacerHandler<KeyedValue<Key, Value>>
  ) where C.Duration == Duration {
    self.makeMachine = makeMachine
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

  /// The number of keys with state: a pending value, an open window, or a
  /// policy that remembers (distinct, skip, take).
  package var liveKeyCount: Int {
    state.withLock { $0.cores.count }
  }

  /// How many keys the storage has room for without growing: its per-key
  /// table and its timer heap. For the churn test: it follows the live keys.
  package var capacity: (cores: Int, deadlines: Int) {
    state.withLock { ($0.cores.capacity, $0.deadlines.entries.capacity) }
  }

  /// The number of keys whose policy holds a value back.
  package var pendingCount: Int {
    state.withLock { state in state.cores.values.count { $0.hasPendingValue } }
  }

  /// Whether `key`'s policy holds a value back, or one waits for the handler.
  package func isPending(key: Key) -> Bool {
    state.withLock { state in
      state.cores[key]?.hasPendingValue == true || state.outbox[state.outboxHead...].contains { $0.key == key }
    }
  }

  @inlinable
  package func send(_ value: Value, for key: Key) {
    perform(key, creating: true) { machine, now in machine.valueReceived(value, at: now) }
  }

  /// Drops what `key`'s policy holds back; a value already emitted is delivered.
  package func cancel(key: Key) {
    perform(key, creating: false) { machine, now in machine.cancelled(at: now) }
  }

  /// Emits what `key`'s policy holds back, now.
  package func flush(key: Key) {
    perform(key, creating: false) { machine, now in machine.flushRequested(at: now) }
  }

  /// ``cancel(key:)`` for every key.
  package func cancelAll() {
    forEveryKey { machine, now in machine.cancelled(at: now) }
  }

  /// ``flush(key:)`` for every key.
  package func flushAll() {
    forEveryKey { machine, now in machine.flushRequested(at: now) }
  }

  /// The driver is gone: nothing more is armed or delivered.
  package func shutDown() {
    let wasArmed = state.withLock { state -> Bool in
      state.isShutDown = true
      state.cores = [:]
      state.deadlines = TimerHeap()
      (state.outbox, state.outboxHead) = ([], 0)
      return state.armed.disarm() != nil
    }
    if wasArmed { scheduler.disarm(ObjectIdentifier(self)) }
  }

  // MARK: Events

  @inlinable
  func perform(
    _ key: Key, creating: Bool, _ event: (inout Machine, DriverInstant) -> PacingAction<Value>
  ) {
    let delivers = state.withLock { state -> Bool in
      guard !state.isShutDown else { return false }
      let now = scheduler.now
      if let index = state.cores.index(forKey: key) {
        // A live key: its core changes in place (no removal and insertion per event).
        let step = state.cores.values[index].apply(event(&state.cores.values[index].machine, now))
        if settle(key, &state.cores.values[index], step, &state.deadlines, &state.outbox) { state.cores.remove(at: index) }
      } else if creating {
        var core = makeCore(now)
        let step = core.apply(event(&core.machine, now))
        if !settle(key, &core, step, &state.deadlines, &state.outbox) { state.cores[key] = core }
      } else {
        return false
      }
      followEarliest(&state)
      return beginDelivery(&state)
    }
    if delivers { startDelivery() }
  }

  private func forEveryKey(_ event: (inout Machine, DriverInstant) -> PacingAction<Value>) {
    let delivers = state.withLock { state -> Bool in
      guard !state.isShutDown else { return false }
      let now = scheduler.now
      for key in Array(state.cores.keys) {
        guard let index = state.cores.index(forKey: key) else { continue }
        let step = state.cores.values[index].apply(event(&state.cores.values[index].machine, now))
        if settle(key, &state.cores.values[index], step, &state.deadlines, &state.outbox) { state.cores.remove(at: index) }
      }
      followEarliest(&state)
      return beginDelivery(&state)
    }
    if delivers { startDelivery() }
  }

  /// The driver's timer fired: every key due now fires, earliest first.
  /// With inline delivery and a handler with no isolation, the timer's thread
  /// delivers at once, as a pacer's does.
  @usableFromInline
  func timerFired(onTimerThread: Bool) -> TimerDelivery? {
    let delivers = state.withLock { state -> Bool in
      state.armed.fired()
      guard !state.isShutDown else { return false }
      let now = scheduler.now
      // Taken out first: a key re-armed for now is not taken twice in one firing.
      while let entry = state.deadlines.popFirst(dueAt: now.nanoseconds) { state.due.append(entry.key) }
      for key in state.due {
        guard let index = state.cores.index(forKey: key) else { continue }
        let step = state.cores.values[index].timerFired(at: now)
        if settle(key, &state.cores.values[index], step, &state.deadlines, &state.outbox) { state.cores.remove(at: index) }
      }
      state.due.removeAll(keepingCapacity: state.due.capacity <= TimerHeap<Key, Void>.retainedCapacity)
      followEarliest(&state)
      return beginDelivery(&state)
    }
    guard delivers else { return nil }
    if onTimerThread, delivery == .inline, case .some(nil) = handler.isolation { return Self.deliverWithoutIsolation }
    startDelivery()
    return nil
  }

  @inlinable
  func makeCore(_ now: DriverInstant) -> DriverCore<Machine> {
    var core = DriverCore(machine: makeMachine())
    _ = core.apply(core.machine.started(at: now))
    return core
  }

  /// Applies a core's step for `key`: its timer command to the heap, what it
  /// emitted to the outbox; returns whether the key can be dropped now.
  @inlinable
  func settle(
    _ key: Key, _ core: inout DriverCore<Machine>, _ step: DriverStep,
    _ deadlines: inout TimerHeap<Key, Void>, _ outbox: inout [(key: Key, value: Value)]
  ) -> Bool {
    switch step.timer {
    case .arm(let deadline)?: deadlines.arm(key, at: deadline.nanoseconds, payload: ())
    case .disarm?: deadlines.disarm(key)
    case nil: break
    }
    while let event = core.takeNext() {
      if case .value(let value) = event { outbox.append((key, value)) }
    }
    guard core.machine.isDiscardable, core.armed.deadline == nil, !core.hasPendingValue else { return false }
    deadlines.disarm(key)
    return true  // Nothing of it is left: a new core for its next value behaves the same.
  }

  /// Arms the driver's one timer for the earliest key deadline, by the rule
  /// every driver follows (``ArmedDeadline``); disarms it when no key waits.
  @inlinable
  func followEarliest(_ state: inout State) {
    let earliest = state.deadlines.earliestDeadline.map(DriverInstant.init(nanoseconds:))
    scheduler.follow(state.armed.follow(earliest), owner: self, fire: Self.fire)
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
  @usableFromInline
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

  @usableFromInline
  static var deliverWithoutIsolation: TimerDelivery {
    { owner in await unsafeDowncast(owner, to: KeyedPacerStorage.self).deliver(isolation: nil) }
  }

  private func deliver(isolation: isolated (any Actor)?) async {
    while let next = state.withLock({ state -> KeyedValue<Key, Value>? in
      guard !state.isShutDown, state.outboxHead < state.outbox.count else {
        state.isDelivering = false  // Under the same lock a sender checks it: none is left behind.
        state.outbox.removeAll(keepingCapacity: state.outbox.capacity <= TimerHeap<Key, Void>.retainedCapacity)
        state.outboxHead = 0
        return nil
      }
      defer { state.outboxHead += 1 }
      let (key, value) = state.outbox[state.outboxHead]
      return KeyedValue(key: key, value: value)
    }) {
      if await !handler.call(next, isolation: isolation) { shutDown() }  // The owner is gone.
    }
    scheduler.deliveryFinished()
  }
}

/// A key and one of its values, as the handler of a keyed driver receives them.
@usableFromInline
struct KeyedValue<Key: Sendable, Value: Sendable>: Sendable {
  @usableFromInline let key: Key
  @usableFromInline let value: Value

  @inlinable
  init(key: Key, value: Value) {
    self.key = key
    self.value = value
  }
}
