//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// The driver behind ``AsyncDebouncedSequence`` and ``AsyncThrottledSequence``:
/// a producer task consumes the base and feeds the policy; the policy's timer
/// and the producer put what it emits in a buffer that `next()` takes from.
///
/// Cancelling the consumer, or dropping the iterator, ends the sequence,
/// cancels the producer (so the base is no longer consumed) and the timer.
@usableFromInline
final class PacedSequenceStorage<Base: AsyncSequence & Sendable, Machine: PacingStateMachine & Sendable>: Sendable
where Base.Element: Sendable, Machine.Value == Base.Element, Machine.Instant == DriverInstant {
  @usableFromInline typealias Element = Base.Element
  @usableFromInline typealias Failure = Base.Failure
  @usableFromInline typealias Consumer = CheckedContinuation<Result<Element?, Failure>, Never>

  @usableFromInline
  enum Output {
    case element(Element)
    case finished
    case failed(Failure)
  }

  @usableFromInline
  struct State {
    @usableFromInline var machine: Machine
    /// Whether the clock holds a timer for this sequence.
    @usableFromInline var isTimerArmed = false
    @usableFromInline var producer: Task<Void, Never>?
    @usableFromInline var isStarted = false
    /// Emitted but not yet returned by `next()`, oldest first.
    @usableFromInline var outputs: [Output] = []
    /// The consumer suspended in `next()`, if any.
    @usableFromInline var consumer: Consumer?
    /// Whether `next()` returned the end (or the sequence was cancelled).
    @usableFromInline var isDone = false
    /// Upstream values, finishes and failures the policy has been told about.
    @usableFromInline var upstreamEventsHandled = 0
    @usableFromInline var handledWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    /// Side effects of upstream events, to perform once the lock is released.
    var deferred: [Resumption] = []

    init(machine: Machine) {
      self.machine = machine
    }
  }

  @usableFromInline let state: LockedState<State>
  @usableFromInline let base: Base
  @usableFromInline let clock: any DriverClock

  init(base: Base, machine: Machine, clock: any DriverClock) {
    self.base = base
    self.state = LockedState(State(machine: machine))
    self.clock = clock
  }

  // MARK: Consumer

  @inlinable
  func next() async -> Result<Element?, Failure> {
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: Consumer) in
        let result = state.withLock { state -> Result<Element?, Failure>? in
          startIfNeeded(&state)
          if let result = takeOutput(&state) { return result }
          state.consumer = continuation
          return nil
        }
        if let result { continuation.resume(returning: result) }
      }
    } onCancel: {
      cancel()
    }
  }

  /// Whether `next()` would return without suspending.
  func hasOutput() -> Bool {
    state.withLock { !$0.outputs.isEmpty || $0.isDone }
  }

  /// Ends the sequence: the consumer gets `nil`; the producer and timer stop.
  @usableFromInline
  func cancel() {
    let (consumer, producer, waiters) = state.withLock { state in
      state.isDone = true
      state.outputs.removeAll()
      let consumer = state.consumer
      state.consumer = nil
      let producer = state.producer
      state.producer = nil
      let waiters = state.handledWaiters.map(\.continuation)
      state.handledWaiters = []
      disarmTimer(&state)
      return (consumer, producer, waiters)
    }
    producer?.cancel()
    consumer?.resume(returning: .success(nil))
    for waiter in waiters { waiter.resume() }
  }

  /// Returns once the policy has handled `count` upstream events (values, the
  /// finish or the failure), or the sequence has ended. Starts the producer.
  func waitUntilUpstreamEventsHandled(_ count: Int) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let ready = state.withLock { state in
        startIfNeeded(&state)
        guard state.upstreamEventsHandled < count, !state.isDone, state.producer != nil else { return true }
        state.handledWaiters.append((count, continuation))
        return false
      }
      if ready { continuation.resume() }
    }
  }

  /// Starts the producer. Inlined into the client with `next()`, so that the
  /// producer's loop is specialised for the base and element types. The task
  /// holds the storage strongly: the iterator's lifetime cancels it.
  @inlinable
  func startIfNeeded(_ state: inout State) {
    guard !state.isStarted else { return }
    state.isStarted = true
    state.producer = Task { [self, base] in
      var iterator = base.makeAsyncIterator()
      do throws(Failure) {
        while let element = try await iterator.next(isolation: nil) {
          guard !Task.isCancelled else { return }
          self.elementProduced(element)
        }
        self.upstreamEvent { state, now in state.machine.upstreamFinished(at: now) }
      } catch {
        self.upstreamEvent(failure: error) { state, now in state.machine.upstreamFailed(at: now) }
      }
    }
  }

  /// The base produced an element: the per-element hot path. It handles only
  /// trivial values: emissions, waiters and timers are settled out of line
  /// under the same lock, and their side effects performed after it.
  ///
  /// The clock is read under the lock (here, at upstream events and at the
  /// timer), so the instants the policy sees never go backwards, although
  /// the timer fires on another thread than the producer's.
  @inlinable
  func elementProduced(_ element: Element) {
    let hasEffects = state.withLock { state -> Bool in
      guard !state.isDone else { return false }
      let action = state.machine.valueReceived(element, at: clock.now)
      state.upstreamEventsHandled &+= 1
      if case .none = action, state.handledWaiters.isEmpty, state.isTimerArmed || state.machine.deadline == nil {
        return false  // The common case: the policy only moved its deadline.
      }
      deferEffects(of: action, &state)
      return true
    }
    if hasEffects { performDeferredEffects() }
  }

  /// Settles an upstream element's action under the lock; its side effects
  /// wait in the state for ``performDeferredEffects()``.
  @usableFromInline
  func deferEffects(of action: PacingAction<Element>, _ state: inout State) {
    state.deferred.append(afterUpstreamEvent(action, failure: nil, &state))
  }

  /// Performs the side effects that upstream events left, in order.
  @usableFromInline
  func performDeferredEffects() {
    let deferred = state.withLock { state -> [Resumption] in
      defer { state.deferred.removeAll(keepingCapacity: true) }
      return state.deferred
    }
    for resumption in deferred { resumption.perform() }
  }

  /// What to resume or cancel once the lock is released.
  @usableFromInline
  struct Resumption {
    @usableFromInline var consumer: Consumer?
    @usableFromInline var result: Result<Element?, Failure>?
    @usableFromInline var waiters: [CheckedContinuation<Void, Never>] = []

    @usableFromInline
    init(
      consumer: Consumer?, result: Result<Element?, Failure>?, waiters: [CheckedContinuation<Void, Never>]
    ) {
      self.consumer = consumer
      self.result = result
      self.waiters = waiters
    }

    @usableFromInline
    func perform() {
      if let consumer, let result { consumer.resume(returning: result) }
      for waiter in waiters { waiter.resume() }
    }
  }

  /// Takes the oldest output for the consumer; nil when there is none yet.
  @usableFromInline
  func takeOutput(_ state: inout State) -> Result<Element?, Failure>? {
    guard !state.outputs.isEmpty else { return state.isDone ? .success(nil) : nil }
    switch state.outputs.removeFirst() {
    case .element(let element):
      return .success(element)
    case .finished:
      state.isDone = true
      return .success(nil)
    case .failed(let error):
      state.isDone = true
      return .failure(error)
    }
  }

  // MARK: Producer and timer

  /// The base finished or failed.
  @usableFromInline
  func upstreamEvent(failure: Failure? = nil, _ event: (inout State, DriverInstant) -> PacingAction<Element>) {
    let resumption = state.withLock { state -> Resumption? in
      guard !state.isDone else { return nil }
      let action = event(&state, clock.now)
      state.upstreamEventsHandled &+= 1
      return afterUpstreamEvent(action, failure: failure, &state)
    }
    resumption?.perform()
  }

  /// After the policy handled an upstream event: buffer what it emitted, arm
  /// or let go of the timer, hand an output to a waiting consumer, and collect
  /// the waiters whose count is reached.
  @usableFromInline
  func afterUpstreamEvent(_ action: PacingAction<Element>, failure: Failure?, _ state: inout State) -> Resumption {
    enqueue(action, failure: failure, &state)
    armTimerIfNeeded(&state)
    let handled = state.upstreamEventsHandled
    let waiters = state.handledWaiters.filter { $0.count <= handled }.map(\.continuation)
    state.handledWaiters.removeAll { $0.count <= handled }
    let (consumer, result) = deliverIfWaiting(&state)
    if state.machine.deadline == nil { disarmTimer(&state) }
    return Resumption(consumer: consumer, result: result, waiters: waiters)
  }

  /// Arms the timer when the policy waits for a deadline and none is armed.
  /// The clock's callback holds the storage until it fires or is disarmed;
  /// the iterator's lifetime cancels the sequence, which disarms it.
  private func armTimerIfNeeded(_ state: inout State) {
    guard !state.isTimerArmed, let deadline = state.machine.deadline else { return }
    state.isTimerArmed = true
    clock.schedule(TimerOwner(self), at: deadline) { storage, _ in
      unsafeDowncast(storage, to: PacedSequenceStorage.self).timerFired()
      return nil
    }
  }

  /// The timer fired: run the policy, arm again if it still waits, and hand
  /// an output to a waiting consumer.
  private func timerFired() {
    let (consumer, result) = state.withLock { state -> (Consumer?, Result<Element?, Failure>?) in
      // Not armed: a timer let go by the end of the sequence that fired anyway.
      guard state.isTimerArmed, !state.isDone else { return (nil, nil) }
      enqueue(state.machine.timerFired(at: clock.now), failure: nil, &state)
      state.isTimerArmed = false
      armTimerIfNeeded(&state)
      return deliverIfWaiting(&state)
    }
    if let consumer, let result { consumer.resume(returning: result) }
  }

  private func disarmTimer(_ state: inout State) {
    guard state.isTimerArmed else { return }
    state.isTimerArmed = false
    clock.unschedule(ObjectIdentifier(self))
  }

  private func enqueue(_ action: PacingAction<Element>, failure: Failure?, _ state: inout State) {
    switch action {
    case .none: break
    case .emit(let element): state.outputs.append(.element(element))
    case .finish: state.outputs.append(.finished)
    case .emitAndFinish(let element): state.outputs.append(contentsOf: [.element(element), .finished])
    case .fail:
      // Only an upstream failure makes a policy fail, and it passes its error.
      if let failure { state.outputs.append(.failed(failure)) }
    }
  }

  /// Hands the oldest output to a consumer suspended in `next()`, if there is one.
  private func deliverIfWaiting(_ state: inout State) -> (Consumer?, Result<Element?, Failure>?) {
    guard state.consumer != nil, let result = takeOutput(&state) else { return (nil, nil) }
    defer { state.consumer = nil }
    return (state.consumer, result)
  }
}

/// Ends the sequence when the iterator that owns it goes away.
@usableFromInline
final class PacedSequenceLifetime<Base: AsyncSequence & Sendable, Machine: PacingStateMachine & Sendable>: Sendable
where Base.Element: Sendable, Machine.Value == Base.Element, Machine.Instant == DriverInstant {
  @usableFromInline let storage: PacedSequenceStorage<Base, Machine>

  init(storage: PacedSequenceStorage<Base, Machine>) {
    self.storage = storage
  }

  deinit {
    storage.cancel()
  }
}
