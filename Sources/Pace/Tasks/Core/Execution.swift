//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// One run of a task type's work, from the moment it is decided until its
/// waiters are answered: its generation, its task once started, and the
/// callers that wait for its result (none for a handler).
///
/// Kept under its owner's lock; taken out of it to be answered, so that
/// continuations resume and tasks are cancelled after the lock.
@usableFromInline
package struct Execution<Success: Sendable>: Sendable {
  @usableFromInline package let generation: UInt64
  /// Set just after the task is created; an execution that loses before
  /// then has its task cancelled by `LockedState.startTask(_:attach:)`.
  @usableFromInline package var task: Task<Void, any Error>?
  @usableFromInline package var waiters: Waiters<Success>

  @inlinable
  package init(generation: UInt64, waiter: Waiter<Success>? = nil) {
    self.generation = generation
    self.waiters = Waiters(waiter)
  }

  /// It lost (superseded, cancelled, every caller gone): each waiter gets
  /// `CancellationError`, and the work is cancelled.
  @inlinable
  package func lose() {
    waiters.lose()
    task?.cancel()
  }

  /// The work returned: each waiter gets its result.
  @inlinable
  package func finish(with result: Result<Success, any Error>) {
    waiters.resume(with: result)
  }
}

extension Optional {
  /// Stores `task` in the execution of `generation`, if it is still this
  /// one; false when it lost or ended while its task was being created.
  @inlinable
  package mutating func attach<Success>(_ task: Task<Void, any Error>, to generation: UInt64) -> Bool
  where Wrapped == Execution<Success> {
    guard self?.generation == generation else { return false }
    self?.task = task
    return true
  }

  /// Takes out the execution of `generation`, if it is this one.
  @inlinable
  package mutating func take<Success>(generation: UInt64) -> Execution<Success>? where Wrapped == Execution<Success> {
    guard self?.generation == generation else { return nil }
    return take()
  }
}
