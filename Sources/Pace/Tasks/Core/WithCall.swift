//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// The one entry of every awaiting task type's `run`: suspends the caller
/// until its waiter is answered, and reports the caller's cancellation.
///
/// `register` runs on the caller's isolation before any suspension, so calls
/// made on one actor register in the order they were made. It must check
/// `Task.isCancelled` under the same lock that `leave` takes: either
/// `leave` finds the waiter, or `register` finds the caller cancelled.
///
/// - Parameters:
///   - isolation: The caller's actor.
///   - register: Takes the caller's waiter; answers it at once or keeps it.
///   - leave: The caller's task was cancelled: answer its waiter, if kept.
@inlinable
package func withCall<Success: Sendable>(
  isolation: isolated (any Actor)?,
  register: (Waiter<Success>) -> Void,
  leave: @Sendable (CallerIdentity) -> Void
) async throws -> Success {
  let caller = CallerIdentity.current
  return try await withTaskCancellationHandler {
    _ = isolation  // Captured, so the operation runs on the caller's isolation.
    return try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Success, any Error>) in
      register(Waiter(caller: caller, continuation: continuation))
    }
  } onCancel: {
    leave(caller)
  }
}
