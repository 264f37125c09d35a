//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// The driver of ``AsyncMapLatestSequence``: a producer task consumes the
/// base eagerly, and each element's operation runs in a task of its own;
/// ``MapLatestStateMachine`` decides, this does.
///
/// An operation's task starts with `Task.immediate`: it runs on the producer's
/// thread until it first suspends, so an operation that does not suspend
/// costs no thread hop, and one that does is already waiting when the next
/// element is read.
@usableFromInline
final class MapLatestStorage<Base: AsyncSequence & Sendable, Transformed: Sendable>: Sendable
where Base.Element: Sendable {
  @usableFromInline typealias Element = Base.Element
  @usableFromInline typealias Machine = MapLatestStateMachine<Transformed, any Error>
  /// Unsafe rather than checked: `CheckedContinuation`'s layout is known only at
  /// run time, which costs every value that holds one on the per-result path,
  /// and it allocates a canary per suspension. It is safe because a consumer
  /// is stored and taken only under the lock, and resumed once by whoever
  /// took it.
  @usableFromInline typealias Consumer = UnsafeContinuation<Result<Transformed?, any Error>, Never>
  @usableFromInline typealias Transform = @Sendable @isolated(any) (Element) async throws -> Transformed

  @usableFromInline
  struct State {
    @usableFromInline var machine = Machine()
    @usableFromInline var isStarted = false
    @usableFromInline var producer: Task<Void, Never>?
    /// The consumer suspended in `next()`, if any.
    @usableFromInline var consumer: Consumer?
    /// The task of the current operation, once its start has returned, and its generation.
    @usableFromInline var operation: Task<Void, any Error>?
    @usableFromInline var operationGeneration: UInt64 = 0
    /// An operation cancelled before its task was stored: cancelled once it is.
    @usableFromInline var cancelledGeneration: UInt64?
    @usableFromInline var progress = MapLatestProgress()
    @usableFromInline var progressWaiters = ProgressWaiters<MapLatestProgress>()

    @inlinable
    init() {}

    /// Takes the progress waiters whose condition holds now.
    @inlinable
    mutating func takeReachedWaiters() -> [CheckedContinuation<Void, Never>] {
      guard !progressWaiters.isEmpty else { return [] }
      progress.isEnded = machine.isEnded
      return progressWaiters.takeReached(progress)
    }
  }

  @usableFromInline let state = LockedState(State())
  @usableFromInline let base: Base
  @usableFromInline let transform: Transform

  init(base: Base, transform: @escaping Transform) {
    self.base = base
    self.transform = transform
  }

  // MARK: Consumer

  /// The next result, the end (`nil`, also on cancellation) or a failure.
  @inlinable
  func next() async throws -> Transformed? {
    // A result that waits is taken without a continuation.
    if !Task.isCancelled {
      let ready = state.withLock { state -> Result<Transformed?, any Error>? in
        startIfNeeded(&state)
        guard state.machine.hasOutput, case .return(let result) = state.machine.nextRequested() else { return nil }
        return result
      }
      if let ready { return try ready.get() }
    }
    return try await withTaskCancellationHandler {
      await withUnsafeContinuation { (continuation: Consumer) in
        let result = state.withLock { state -> Result<Transformed?, any Error>? in
          startIfNeeded(&state)
          switch state.machine.nextRequested() {
          case .return(let result):
            return result
          case .suspend:
            state.consumer = continuation
            return nil
          }
        }
        if let result { continuation.resume(returning: result) }
      }
    } onCancel: {
      cancel()
    }.get()
  }

  /// Ends the sequence: a waiting consumer gets `nil`; the producer and the
  /// running operation are cancelled.
  @usableFromInline
  func cancel() {
    let effects = state.withLock { state in
      var effects = Effects(of: state.machine.consumerCancelled(), in: &state)
      effects.waiters += state.progressWaiters.takeAll()  // Nothing more will happen.
      return effects
    }
    effects.perform()
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
      do throws(Base.Failure) {
        while let element = try await iterator.next(isolation: nil) {
          guard !Task.isCancelled else { return }
          self.elementProduced(element)
        }
        self.upstreamEnded { $0.baseFinished() }
      } catch {
        self.upstreamEnded { $0.baseFailed(error) }
      }
    }
  }

  // MARK: Producer

  /// The base produced an element: the per-element hot path. The superseded
  /// operation is cancelled and the element's operation starts.
  @inlinable
  func elementProduced(_ element: Element) {
    let (action, superseded) = state.withLock { state -> (Machine.Action, Task<Void, any Error>?) in
      let action = state.machine.elementProduced()
      guard case .startOperation(_, let cancelling?) = action, state.operationGeneration == cancelling else {
        return (action, nil)
      }
      defer { state.operation = nil }
      return (action, state.operation)
    }
    superseded?.cancel()
    guard case .startOperation(let generation, _) = action else {
      upstreamEventHandled()  // The sequence has ended: the element is dropped.
      return
    }
    let waiters = state.startTask {
      [self] in await self.runOperation(element, generation: generation)
    } attach: { state, task in
      state.progress.upstreamEventsHandled &+= 1
      state.progress.operationsStarted &+= 1
      let waiters = state.takeReachedWaiters()
      if state.machine.runningGeneration == generation {
        // Still running after its synchronous start: keep its task, to cancel it.
        state.operation = task
        state.operationGeneration = generation
        return (true, waiters)
      }
      // It ended during its start, or was cancelled before its task was known.
      return (state.cancelledGeneration != generation, waiters)
    }
    for waiter in waiters { waiter.resume() }
  }

  @inlinable
  func runOperation(_ element: Element, generation: UInt64) async {
    let result: Result<Transformed, any Error>
    do {
      result = .success(try await transform(element))
    } catch {
      result = .failure(error)
    }
    operationFinished(generation: generation, result)
  }

  /// The operation of `generation` ended, current or superseded.
  @inlinable
  func operationFinished(generation: UInt64, _ result: Result<Transformed, any Error>) {
    let effects = state.withLock { state in
      let action = state.machine.operationFinished(generation: generation, result)
      if state.operationGeneration == generation { state.operation = nil }
      state.progress.operationsEnded &+= 1
      return Effects(of: action, in: &state)
    }
    effects.perform()
  }

  /// The base finished or failed.
  @usableFromInline
  func upstreamEnded(_ event: (inout Machine) -> Machine.Action) {
    let effects = state.withLock { state in
      state.progress.upstreamEventsHandled &+= 1
      return Effects(of: event(&state.machine), in: &state)
    }
    effects.perform()
  }

  /// An upstream event that started nothing was handled.
  @usableFromInline
  func upstreamEventHandled() {
    let waiters = state.withLock { state in
      state.progress.upstreamEventsHandled &+= 1
      return state.takeReachedWaiters()
    }
    for waiter in waiters { waiter.resume() }
  }

  // MARK: Effects

  /// What an action asks for, taken out of the state under the lock, and
  /// performed once the lock is released.
  @usableFromInline
  struct Effects {
    @usableFromInline var consumer: Consumer?
    @usableFromInline var result: Result<Transformed?, any Error>?
    @usableFromInline var producer: Task<Void, Never>?
    @usableFromInline var tasksToCancel: [Task<Void, any Error>] = []
    @usableFromInline var waiters: [CheckedContinuation<Void, Never>] = []

    /// Under the lock: takes what `action` needs out of `state`.
    @inlinable
    init(of action: Machine.Action, in state: inout State) {
      switch action {
      case .none, .startOperation:
        break
      case .resumeConsumer(let result):
        (consumer, self.result) = (state.consumer.take(), result)
      case .end(let cancelling, let resuming):
        producer = state.producer.take()
        if let cancelling {
          if state.operationGeneration == cancelling, let operation = state.operation.take() {
            tasksToCancel.append(operation)
          } else {
            state.cancelledGeneration = cancelling
          }
        }
        if let resuming { (consumer, result) = (state.consumer.take(), resuming) }
      }
      waiters = state.takeReachedWaiters()
    }

    @inlinable
    func perform() {
      producer?.cancel()
      for task in tasksToCancel { task.cancel() }
      if let consumer, let result { consumer.resume(returning: result) }
      for waiter in waiters { waiter.resume() }
    }
  }

  // MARK: Hooks for the marble runner and the tests

  /// Whether `next()` would return without suspending.
  func hasOutput() -> Bool {
    state.withLock { $0.machine.hasOutput }
  }

  /// Returns once `condition` holds for the progress (checked whenever it
  /// changes), once the consumer has cancelled, or once the waiting task is
  /// cancelled. Starts the producer.
  func waitUntil(_ condition: @escaping @Sendable (MapLatestProgress) -> Bool) async {
    state.withLock { startIfNeeded(&$0) }
    await state.wait(in: \.progressWaiters, until: condition) { state in
      var progress = state.progress
      progress.isEnded = state.machine.isEnded
      return progress
    }
  }
}

/// How far a map-latest sequence has got; for the marble runner and the tests.
@usableFromInline
package struct MapLatestProgress: Sendable {
  /// Elements, the finish and the failure of the base that the policy has
  /// handled (and the operation an element started has been started).
  @usableFromInline package var upstreamEventsHandled = 0
  /// Operations started.
  @usableFromInline package var operationsStarted = 0
  /// Operations ended, current or superseded.
  @usableFromInline package var operationsEnded = 0
  /// Whether the sequence has ended, for its consumer or only for its base
  /// (nothing more of the base is handled).
  @usableFromInline package var isEnded = false

  @inlinable
  init() {}
}

/// Ends the sequence when the iterator that owns it goes away.
@usableFromInline
final class MapLatestLifetime<Base: AsyncSequence & Sendable, Transformed: Sendable>: Sendable
where Base.Element: Sendable {
  @usableFromInline let storage: MapLatestStorage<Base, Transformed>

  init(storage: MapLatestStorage<Base, Transformed>) {
    self.storage = storage
  }

  deinit {
    storage.cancel()
  }
}
