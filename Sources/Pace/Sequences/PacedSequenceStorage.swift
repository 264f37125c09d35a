//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// The shell that runs a ``DriverCore`` for ``AsyncPacedSequence``: a producer
/// task consumes the base and feeds the policy; the outbox is drained by
/// `next()`.
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
  struct State {
    @usableFromInline var core: DriverCore<Machine>
    /// The sequence's timer: its slot in the scheduler, which the core's commands arm.
    @usableFromInline let scheduler: TimerScheduler
    @usableFromInline var producer: Task<Void, Never>?
    @usableFromInline var isStarted = false
    /// The base's error, thrown when the policy's failure comes out.
    @usableFromInline var failure: Failure?
    /// The consumer suspended in `next()`, if any.
    @usableFromInline var consumer: Consumer?
    /// Whether `next()` returned the end (or the sequence was cancelled).
    @usableFromInline var isDone = false
    /// Upstream values, finishes and failures the policy has been told about.
    @usableFromInline var upstreamEventsHandled = 0
    /// Tests waiting until the policy has handled a number of upstream events.
    @usableFromInline var progressWaiters = ProgressWaiters<Progress>()

    init(core: DriverCore<Machine>, scheduler: TimerScheduler) {
      self.core = core
      self.scheduler = scheduler
    }

    /// Applies `action` to the core, and its timer command to the scheduler.
    @inlinable
    mutating func apply(_ action: PacingAction<Machine.Value>, owner: AnyObject) -> Bool {
      let step = core.apply(action)
      scheduler.follow(step.timer, owner: owner, fire: PacedSequenceStorage.fire)
      return step.emitted
    }

    @usableFromInline
    var progress: Progress {
      Progress(upstreamEventsHandled: upstreamEventsHandled, isEnded: isDone || (isStarted && producer == nil))
    }
  }

  /// How far the policy got, for tests: events handled, and whether no more will come.
  @usableFromInline
  struct Progress: Sendable {
    @usableFromInline let upstreamEventsHandled: Int
    @usableFromInline let isEnded: Bool

    @inlinable
    init(upstreamEventsHandled: Int, isEnded: Bool) {
      self.upstreamEventsHandled = upstreamEventsHandled
      self.isEnded = isEnded
    }
  }

  @usableFromInline let state: LockedState<State>
  @usableFromInline let base: Base

  init(base: Base, machine: Machine, scheduler: TimerScheduler) {
    self.base = base
    self.state = LockedState(State(core: DriverCore(machine: machine), scheduler: scheduler))
  }

  /// What the timer calls: a function of the storage that captures nothing.
  @inlinable
  static var fire: TimerCallback {
    { storage, _ in
      unsafeDowncast(storage, to: PacedSequenceStorage.self).timerFired()
      return nil
    }
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
    state.withLock { !$0.core.outbox.isEmpty || $0.isDone }
  }

  /// Ends the sequence: the consumer gets `nil`; the producer and timer stop.
  @usableFromInline
  func cancel() {
    let (consumer, producer, waiters) = state.withLock { state in
      state.isDone = true
      if state.core.shutDown() == .disarm { state.scheduler.disarm(ObjectIdentifier(self)) }
      defer { (state.consumer, state.producer) = (nil, nil) }
      return (state.consumer, state.producer, state.progressWaiters.takeAll())
    }
    producer?.cancel()
    consumer?.resume(returning: .success(nil))
    for waiter in waiters { waiter.resume() }
  }

  /// Returns once the policy has handled `count` upstream events (values, the
  /// finish or the failure), or the sequence has ended. Starts the producer.
  func waitUntil(upstreamEventsHandled count: Int) async {
    state.withLock { startIfNeeded(&$0) }
    await state.wait(
      in: \.progressWaiters, until: { $0.isEnded || $0.upstreamEventsHandled >= count }, now: \.progress)
  }

  /// Starts the producer, and tells the policy the input starts. Inlined into
  /// the client with `next()`, so that the producer's loop is specialised for
  /// the base and element types. The task holds the storage strongly: the
  /// iterator's lifetime cancels it.
  @inlinable
  func startIfNeeded(_ state: inout State) {
    guard !state.isStarted else { return }
    state.isStarted = true
    let action = state.core.machine.started(at: state.scheduler.now)
    _ = state.apply(action, owner: self)
    guard !state.core.isTerminated else { return }  // `take 0`: the base is never consumed.
    state.producer = Task { [self, base] in
      var iterator = base.makeAsyncIterator()
      do throws(Failure) {
        while let element = try await iterator.next(isolation: nil) {
          guard !Task.isCancelled else { return }
          self.elementProduced(element)
        }
        self.upstreamEvent { state in state.core.machine.upstreamFinished(at: state.scheduler.now) }
      } catch {
        self.upstreamEvent(failure: error) { state in state.core.machine.upstreamFailed(at: state.scheduler.now) }
      }
    }
  }

  /// The base produced an element: the per-element hot path. When the policy
  /// only moved its deadline later and nobody waits, nothing else happens.
  ///
  /// The clock is read under the lock (here, at upstream events and at the
  /// timer), so the instants the policy sees never go backwards, although
  /// the timer fires on another thread than the producer's.
  ///
  /// Only trivial values cross the lock here: a `Resumption` holds a
  /// continuation, whose type is resilient (its layout is known only at run
  /// time), and returning one per element cost 15 times the whole path.
  @inlinable
  func elementProduced(_ element: Element) {
    let needsSettling = state.withLock { state -> Bool in
      guard !state.isDone else { return false }
      let emitted = state.apply(state.core.machine.valueReceived(element, at: state.scheduler.now), owner: self)
      state.upstreamEventsHandled &+= 1
      return emitted || !state.progressWaiters.isEmpty  // Usually false: the policy only moved its deadline.
    }
    if needsSettling { settleAndResume() }
  }

  /// Hands outputs to a waiting consumer and resumes the waiters whose count
  /// is reached; out of line, off the per-element path.
  @usableFromInline
  func settleAndResume() {
    state.withLock { settle(&$0) }.perform()
  }

  /// Runs the base's finish or failure on the policy under the lock; then
  /// resumes the consumer and the waiters it concerns, outside it.
  @usableFromInline
  func upstreamEvent(failure: Failure? = nil, _ event: (inout State) -> PacingAction<Element>) {
    let resumption = state.withLock { state -> Resumption? in
      guard !state.isDone else { return nil }
      if let failure { state.failure = failure }
      _ = state.apply(event(&state), owner: self)
      state.upstreamEventsHandled &+= 1
      return settle(&state)
    }
    resumption?.perform()
  }

  /// The timer fired: run the policy as of now, follow its deadline, and
  /// hand an output to a waiting consumer.
  @usableFromInline
  func timerFired() {
    let resumption = state.withLock { state -> Resumption? in
      guard !state.isDone else { return nil }
      let step = state.core.timerFired(at: state.scheduler.now)
      state.scheduler.follow(step.timer, owner: self, fire: Self.fire)
      guard step.emitted else { return nil }
      return settle(&state)
    }
    resumption?.perform()
  }

  /// What to resume once the lock is released.
  @usableFromInline
  struct Resumption {
    @usableFromInline var consumer: Consumer?
    @usableFromInline var result: Result<Element?, Failure>?
    @usableFromInline var waiters: [CheckedContinuation<Void, Never>]
    /// The producer, to cancel once the policy has ended: the base is no longer consumed.
    @usableFromInline var finishedProducer: Task<Void, Never>?

    @usableFromInline
    init(
      consumer: Consumer?, result: Result<Element?, Failure>?, waiters: [CheckedContinuation<Void, Never>],
      finishedProducer: Task<Void, Never>?
    ) {
      self.consumer = consumer
      self.result = result
      self.waiters = waiters
      self.finishedProducer = finishedProducer
    }

    @usableFromInline
    func perform() {
      finishedProducer?.cancel()
      if let consumer, let result { consumer.resume(returning: result) }
      for waiter in waiters { waiter.resume() }
    }
  }

  /// Under the lock: hands the oldest output to a waiting consumer, collects
  /// the waiters whose count is reached, and, once the policy has ended
  /// (a `take` reached its count), the producer to cancel.
  @usableFromInline
  func settle(_ state: inout State) -> Resumption {
    var finishedProducer: Task<Void, Never>?
    if state.core.isTerminated {
      // Nothing the base produces can come out any more: stop consuming it.
      finishedProducer = state.producer
      state.producer = nil
    }
    let waiters = state.progressWaiters.isEmpty ? [] : state.progressWaiters.takeReached(state.progress)
    guard state.consumer != nil, let result = takeOutput(&state) else {
      return Resumption(consumer: nil, result: nil, waiters: waiters, finishedProducer: finishedProducer)
    }
    defer { state.consumer = nil }
    return Resumption(consumer: state.consumer, result: result, waiters: waiters, finishedProducer: finishedProducer)
  }

  /// Takes the oldest output for the consumer; nil when there is none yet.
  @usableFromInline
  func takeOutput(_ state: inout State) -> Result<Element?, Failure>? {
    guard let event = state.core.takeNext() else { return state.isDone ? .success(nil) : nil }
    switch event {
    case .value(let element):
      return .success(element)
    case .finish:
      state.isDone = true
      return .success(nil)
    case .failure:
      state.isDone = true
      // Only an upstream failure makes a policy fail, and the base passed its error.
      guard let failure = state.failure else { return .success(nil) }
      return .failure(failure)
    }
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
