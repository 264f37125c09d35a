//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import PostgresNIO
import Synchronization

/// Why a fleet pacer could not send, or could not start its worker.
///
/// A send that throws was not recorded, or (when the connection broke after
/// its commit) may have been: sends are not idempotent, so a retry may count
/// twice.
public struct FleetPacerError: Error, CustomStringConvertible, Sendable {
  /// What went wrong, in one line.
  public var description: String
  /// The database client's error, as it describes itself in full.
  public var underlying: String

  init(namespace: PaceNamespace, pacer: String, doing: String, error: any Error) {
    let reason: String
    if let error = error as? PSQLError {
      if let message = error.serverInfo?[.message] {
        reason = "PostgreSQL refused: \(message)"
      } else {
        reason = "PostgreSQL did not answer (\(error.code))"
      }
    } else if let timeout = error as? AnswerTimeout {
      reason = timeout.reason
    } else {
      reason = "PostgreSQL did not answer (\(error))"
    }
    description = "Pace fleet pacer \(namespace.name).\(pacer) could not \(doing): \(reason)"
    underlying = String(reflecting: error)
  }
}

/// A database call that took longer than its limit (see `withAnswerTimeout`).
struct AnswerTimeout: Error {
  var limit: Duration

  /// Why, in words: a client that cannot connect (no server, a refused
  /// login, a database that does not exist) waits for a connection, and
  /// only its own logger says why.
  var reason: String {
    "PostgreSQL did not answer within \(limit) (a client that cannot connect waits for a connection; "
      + "its background logger says why, as \"Connection creation failed\", at level info)"
  }
}

/// Runs `operation`, and throws `AnswerTimeout` when it has not returned
/// within `limit` (never, when `limit` is nil), or `CancellationError` as
/// soon as the caller is cancelled: then it is cancelled and left to end on
/// its own, never waited for here. (A task group would wait for it, and a
/// database call that does not answer, such as one waiting for a pool
/// that no longer connects, may not heed its cancellation at all.) When
/// `calls` is given, the operation counts among them until it ends, so that
/// the one who must can wait for it.
func withAnswerTimeout<Answer: Sendable>(
  _ limit: Duration?, counting calls: CallsInFlight? = nil,
  _ operation: @escaping @Sendable () async throws -> Answer
) async throws -> Answer {
  let race = AnswerRace<Answer>()
  return try await withTaskCancellationHandler {
    try await withCheckedThrowingContinuation { continuation in
      race.start(continuation)
      calls?.begin()
      race.attach(
        Task {
          defer { calls?.end() }
          race.finish(with: await Result<Answer, any Error>.capture(operation))
        })
      if let limit {
        race.attach(Task {
          try? await Task.sleep(for: limit)
          race.finish(with: .failure(AnswerTimeout(limit: limit)))
        })
      }
    }
  } onCancel: {
    race.finish(with: .failure(CancellationError()))
  }
}

/// The first of an operation, its time limit and a cancellation to finish
/// resumes the caller and cancels the others.
private final class AnswerRace<Value: Sendable>: Sendable {
  private struct State {
    var continuation: CheckedContinuation<Value, any Error>?
    var outcome: Result<Value, any Error>?
    var tasks: [Task<Void, Never>] = []
  }

  private let state = Mutex(State())

  func start(_ continuation: CheckedContinuation<Value, any Error>) {
    let early = state.withLock { state -> Result<Value, any Error>? in
      if let outcome = state.outcome { return outcome }
      state.continuation = continuation
      return nil
    }
    if let early { continuation.resume(with: early) }
  }

  func attach(_ task: Task<Void, Never>) {
    let finished = state.withLock { state -> Bool in
      state.tasks.append(task)
      return state.outcome != nil
    }
    if finished { task.cancel() }
  }

  func finish(with outcome: Result<Value, any Error>) {
    let (continuation, tasks) = state.withLock { state -> (CheckedContinuation<Value, any Error>?, [Task<Void, Never>]) in
      guard state.outcome == nil else { return (nil, []) }
      state.outcome = outcome
      defer { state.continuation = nil }
      return (state.continuation, state.tasks)
    }
    continuation?.resume(with: outcome)
    for task in tasks { task.cancel() }
  }
}

extension Result where Failure == any Error {
  static func capture(_ body: @Sendable () async throws -> Success) async -> Self {
    do { return .success(try await body()) } catch { return .failure(error) }
  }
}
