//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Synchronization

/// Runs `operation`, and throws `AnswerTimeout` when it has not returned
/// within `limit` (never, when `limit` is nil), or `CancellationError` as
/// soon as the caller is cancelled: then it is cancelled and left to end on
/// its own, never waited for here. (A task group would wait for it, and a
/// database call that does not answer, such as one waiting for a pool
/// that no longer connects, may not heed its cancellation at all.) When
/// `calls` is given, the operation counts among them until it ends, so that
/// the one who must can wait for it. The limit is watched by `watcher`,
/// the process's ``DeadlineWatcher`` unless a test gives its own.
func withAnswerTimeout<Answer: Sendable>(
  _ limit: Duration?, counting calls: CallsInFlight? = nil, watchedBy watcher: DeadlineWatcher = .shared,
  _ operation: @escaping @Sendable () async throws -> Answer
) async throws -> Answer {
  let race = AnswerRace<Answer>(limit: limit, watcher: watcher)
  return try await withTaskCancellationHandler {
    try await withUnsafeThrowingContinuation { continuation in
      race.start(continuation)
      calls?.begin()
      race.attach(
        Task {
          defer { calls?.end() }
          race.finish(with: await Result<Answer, any Error>.capture(operation))
        })
      if let limit { race.watch(until: .now + limit) }
    }
  } onCancel: {
    race.finish(with: .failure(CancellationError()))
  }
}

/// The first of an operation, its time limit and a cancellation to finish
/// resumes the caller, cancels the operation, and stops watching the limit.
private final class AnswerRace<Value: Sendable>: DeadlineHolder {
  private struct State {
    var continuation: UnsafeContinuation<Value, any Error>?
    var outcome: Result<Value, any Error>?
    var operation: Task<Void, Never>?
    /// The limit's entry in the ``DeadlineWatcher``, while it is watched.
    var deadline: UInt64?
  }

  private let limit: Duration?
  private let watcher: DeadlineWatcher
  private let state = Mutex(State())

  init(limit: Duration?, watcher: DeadlineWatcher) {
    self.limit = limit
    self.watcher = watcher
  }

  func start(_ continuation: UnsafeContinuation<Value, any Error>) {
    let early = state.withLock { state -> Result<Value, any Error>? in
      if let outcome = state.outcome { return outcome }
      state.continuation = continuation
      return nil
    }
    if let early { continuation.resume(with: early) }
  }

  func attach(_ operation: Task<Void, Never>) {
    let finished = state.withLock { state -> Bool in
      state.operation = operation
      return state.outcome != nil
    }
    if finished { operation.cancel() }
  }

  /// Watches the limit, unless the race is over already.
  func watch(until deadline: ContinuousClock.Instant) {
    let id = watcher.add(self, deadline: deadline)
    let finished = state.withLock { state -> Bool in
      if state.outcome != nil { return true }
      state.deadline = id
      return false
    }
    if finished { watcher.remove(id) }
  }

  func deadlinePassed(_ id: UInt64) {
    finish(with: .failure(AnswerTimeout(limit: limit ?? .zero)))
  }

  func finish(with outcome: Result<Value, any Error>) {
    let taken = state.withLock { state -> (UnsafeContinuation<Value, any Error>?, Task<Void, Never>?, UInt64?)? in
      guard state.outcome == nil else { return nil }
      state.outcome = outcome
      defer { (state.continuation, state.operation, state.deadline) = (nil, nil, nil) }
      return (state.continuation, state.operation, state.deadline)
    }
    guard let taken else { return }
    let (continuation, operation, deadline) = taken
    if let deadline { watcher.remove(deadline) }
    continuation?.resume(with: outcome)
    operation?.cancel()
  }
}

extension Result where Failure == any Error {
  static func capture(_ body: @Sendable () async throws -> Success) async -> Self {
    do { return .success(try await body()) } catch { return .failure(error) }
  }
}
