//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// The latest-wins policy of ``AsyncMapLatestSequence``: told that the base
/// produced, finished or failed, that an operation ended, that the consumer
/// asks or cancelled, it answers what to start, cancel, resume or end. It
/// never starts a task, stores a continuation or calls user code.
///
/// Every operation has a generation number, and "latest wins" is decided by
/// it, never by comparing elements or results: an operation that ends after a
/// newer one started is stale, whatever it returned or threw.
///
///     var machine = MapLatestStateMachine<String, any Error>()
///     machine.elementProduced()                               // .startOperation(generation: 1, cancelling: nil)
///     machine.elementProduced()                               // .startOperation(generation: 2, cancelling: 1)
///     machine.operationFinished(generation: 1, .success("a")) // .none: superseded
///     machine.nextRequested()                                 // .suspend
///     machine.operationFinished(generation: 2, .success("b")) // .resumeConsumer(.success("b"))
///
/// The end (the finish, the base's failure or the transform's error) reaches
/// the consumer only once every operation started has ended, superseded ones
/// too, so that none runs after the sequence has finished; only the
/// consumer's cancellation ends at once.
@usableFromInline
package struct MapLatestStateMachine<Transformed, Failure: Error> {
  /// What the driver does after an event.
  @usableFromInline
  package enum Action {
    /// Nothing.
    case none
    /// Start the operation for the element just produced, as `generation`,
    /// and cancel the operation of `cancelling`, which it supersedes.
    case startOperation(generation: UInt64, cancelling: UInt64?)
    /// Resume the waiting consumer with this: a result, the end (`nil`) or a failure.
    case resumeConsumer(Result<Transformed?, Failure>)
    /// The sequence ends: stop consuming the base, cancel the operation of
    /// `cancelling`, and resume the waiting consumer with `resuming`, if any.
    case end(cancelling: UInt64?, resuming: Result<Transformed?, Failure>?)
  }

  /// What `next()` does.
  @usableFromInline
  package enum NextAction {
    /// Return this at once: a result, the end (`nil`) or a failure.
    case `return`(Result<Transformed?, Failure>)
    /// Wait for a later event to resume the consumer.
    case suspend
  }

  /// What the base did after the current result or operation.
  @usableFromInline
  enum Upstream {
    /// It goes on.
    case active
    /// It finished: the sequence finishes after the current result.
    case finished
    /// It failed: the sequence throws this after the current result.
    case failed(Failure)
  }

  @usableFromInline
  enum State {
    /// The base goes on; no operation is current and no result waits.
    case idle
    /// The latest operation (``LatestWins/running``) runs; when `isLast`, the
    /// base has finished and the sequence finishes after its result.
    case running(isLast: Bool)
    /// The current operation's result waits for the consumer.
    case ready(Transformed, then: Upstream)
    /// The sequence has ended with this (`nil`: it finished); the consumer gets
    /// it once no operation runs.
    case ending(Failure?)
    /// The consumer has had the end, or cancelled.
    case finished
  }

  @usableFromInline var state: State = .idle
  @usableFromInline var latest = LatestWins()
  /// Operations started and not yet ended, current or superseded.
  @usableFromInline var liveOperations = 0
  /// Whether the consumer waits in `next()`.
  @usableFromInline var isConsumerWaiting = false

  /// Creates the policy of a sequence that has not started.
  @inlinable
  package init() {}

  /// The generation of the current operation, while it runs.
  @inlinable
  package var runningGeneration: UInt64? {
    latest.running
  }

  /// Whether `nextRequested()` would return without suspending.
  @inlinable
  package var hasOutput: Bool {
    switch state {
    case .ready, .finished: true
    case .ending: liveOperations == 0
    case .idle, .running: false
    }
  }

  /// Whether the sequence has ended, for its consumer or only for its base.
  @inlinable
  package var isEnded: Bool {
    switch state {
    case .ending, .finished: true
    case .idle, .running, .ready: false
    }
  }

  /// The base produced an element: its operation starts, and supersedes the
  /// current operation or the result that waits.
  @inlinable
  package mutating func elementProduced() -> Action {
    switch state {
    case .idle:
      // Nothing runs: the element's operation starts.
      break
    case .running(isLast: false):
      // Latest wins: the running operation is cancelled, its result will be dropped.
      break
    case .ready(_, then: .active):
      // The consumer has not taken the result yet: the newer element supersedes it.
      break
    case .ending, .finished:
      // The sequence ended (cancelled, or the transform threw) before the base saw it: drop it.
      return .none
    case .running(isLast: true), .ready(_, then: .finished), .ready(_, then: .failed):
      preconditionFailure("Invalid state \(state) for elementProduced(): the base already ended")
    }
    let (generation, cancelling) = latest.start()
    liveOperations += 1
    state = .running(isLast: false)
    return .startOperation(generation: generation, cancelling: cancelling)
  }

  /// The operation of `generation` ended with `result`; a superseded one's
  /// result is dropped, whatever it is.
  @inlinable
  package mutating func operationFinished(
    generation finished: UInt64, _ result: Result<Transformed, Failure>
  ) -> Action {
    precondition(liveOperations > 0, "operationFinished(generation: \(finished)) for no operation")
    liveOperations -= 1
    let isLatest = latest.finish(finished)
    switch state {
    case .running(let isLast) where isLatest:
      // The current operation ended.
      switch result {
      case .success(let transformed):
        guard isConsumerWaiting else {
          state = .ready(transformed, then: isLast ? .finished : .active)
          return .none
        }
        isConsumerWaiting = false
        state = isLast ? .ending(nil) : .idle
        return .resumeConsumer(.success(transformed))
      case .failure(let error):
        // The transform threw: the sequence ends with its error.
        state = .ending(error)
        return .end(cancelling: nil, resuming: takeEndIfDeliverable())
      }
    case .running, .idle, .ready, .finished:
      // A superseded operation, or one that ended after the consumer cancelled: dropped.
      return .none
    case .ending:
      // A superseded or cancelled operation; the end may be waiting for it.
      return takeEndIfDeliverable().map(Action.resumeConsumer) ?? .none
    }
  }

  /// The base finished: the current operation's result, if any, comes out
  /// before the finish.
  @inlinable
  package mutating func baseFinished() -> Action {
    switch state {
    case .idle:
      // Nothing runs: the sequence finishes.
      state = .ending(nil)
      return .end(cancelling: nil, resuming: takeEndIfDeliverable())
    case .running(isLast: false):
      // The running operation is the last one; the finish waits for it.
      state = .running(isLast: true)
      return .none
    case .ready(let transformed, then: .active):
      // The result waiting comes out first.
      state = .ready(transformed, then: .finished)
      return .none
    case .ending, .finished:
      // The sequence ended first (the consumer cancelled or the transform threw).
      return .none
    case .running(isLast: true), .ready(_, then: .finished), .ready(_, then: .failed):
      preconditionFailure("Invalid state \(state) for baseFinished(): the base already ended")
    }
  }

  /// The base failed: the running operation is cancelled and its result
  /// dropped; a result already waiting still comes out before the failure.
  @inlinable
  package mutating func baseFailed(_ failure: Failure) -> Action {
    switch state {
    case .idle:
      // Nothing runs: the sequence fails.
      state = .ending(failure)
      return .end(cancelling: nil, resuming: takeEndIfDeliverable())
    case .running(isLast: false):
      // The pending operation is dropped, as a pending element is by the paced sequences.
      state = .ending(failure)
      return .end(cancelling: latest.cancel(), resuming: takeEndIfDeliverable())
    case .ready(let transformed, then: .active):
      // The result already came out of its operation: it is delivered, then the failure.
      state = .ready(transformed, then: .failed(failure))
      return .none
    case .ending, .finished:
      // The sequence ended first.
      return .none
    case .running(isLast: true), .ready(_, then: .finished), .ready(_, then: .failed):
      preconditionFailure("Invalid state \(state) for baseFailed(_:): the base already ended")
    }
  }

  /// The consumer's task was cancelled, or its iterator dropped: the sequence
  /// ends at once, without waiting for any operation.
  @inlinable
  package mutating func consumerCancelled() -> Action {
    let cancelling = latest.cancel()
    switch state {
    case .idle, .running, .ready, .ending:
      // Whatever runs is cancelled, whatever waits is dropped; a waiting consumer gets the end.
      state = .finished
      let resuming: Result<Transformed?, Failure>? = isConsumerWaiting ? .success(nil) : nil
      isConsumerWaiting = false
      return .end(cancelling: cancelling, resuming: resuming)
    case .finished:
      // Cancelled after the end: nothing left to do.
      return .none
    }
  }

  /// The consumer asks for the next result.
  @inlinable
  package mutating func nextRequested() -> NextAction {
    precondition(!isConsumerWaiting, "next() called while another call waits")
    switch state {
    case .idle, .running:
      // Nothing to return yet.
      isConsumerWaiting = true
      return .suspend
    case .ready(let transformed, let then):
      // The result waits: take it; what the base did comes next.
      switch then {
      case .active: state = .idle
      case .finished: state = .ending(nil)
      case .failed(let failure): state = .ending(failure)
      }
      return .return(.success(transformed))
    case .ending:
      // The end, once no operation runs.
      isConsumerWaiting = true
      return takeEndIfDeliverable().map(NextAction.return) ?? .suspend
    case .finished:
      // After the end, always the end.
      return .return(.success(nil))
    }
  }

  /// In `.ending`: when the consumer waits and no operation runs, the end to
  /// resume it with; the sequence is then finished.
  @inlinable
  mutating func takeEndIfDeliverable() -> Result<Transformed?, Failure>? {
    guard case .ending(let failure) = state, isConsumerWaiting, liveOperations == 0 else { return nil }
    state = .finished
    isConsumerWaiting = false
    return failure.map { .failure($0) } ?? .success(nil)
  }
}

extension MapLatestStateMachine: Sendable where Transformed: Sendable {}
extension MapLatestStateMachine.State: Sendable where Transformed: Sendable {}
extension MapLatestStateMachine.Upstream: Sendable {}
extension MapLatestStateMachine.Action: Sendable where Transformed: Sendable {}
extension MapLatestStateMachine.NextAction: Sendable where Transformed: Sendable {}
extension MapLatestStateMachine.Action: Equatable where Transformed: Equatable, Failure: Equatable {}
extension MapLatestStateMachine.NextAction: Equatable where Transformed: Equatable, Failure: Equatable {}
