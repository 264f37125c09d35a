//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// A task type whose callers suspend in ``withCall(_:_:isolation:)``: it
/// registers a caller's waiter, and hears when the caller's task is cancelled.
@usableFromInline
package protocol CallOwner<Success>: Sendable {
  associatedtype Success: Sendable
  /// What one call brings: its operation, its key, its argument.
  associatedtype Call: Sendable

  /// Keeps `waiter` for `call`, or answers it at once. Runs on the caller's
  /// isolation before any suspension, so calls made on one actor register in
  /// the order they were made. It checks `Task.isCancelled` under the lock
  /// that ``leave(_:caller:)`` takes: either `leave` finds the waiter, or
  /// this finds the caller cancelled.
  func register(_ call: Call, waiter: Waiter<Success>)

  /// The task of `caller` was cancelled: answer its waiter, if kept.
  func leave(_ call: Call, caller: CallerIdentity)
}

/// The one entry of every awaiting task type's `run`: suspends the caller
/// until its waiter is answered, and reports the caller's cancellation.
///
/// The owner and the call are passed as values, not closures: closures
/// wrapping them would cost an allocation per caller.
///
/// - Parameters:
///   - owner: The task type.
///   - call: What the call brings.
///   - isolation: The caller's actor.
@inlinable
package func withCall<Owner: CallOwner>(
  _ owner: Owner, _ call: Owner.Call, isolation: isolated (any Actor)?
) async throws -> Owner.Success {
  let caller = CallerIdentity.current
  return try await withTaskCancellationHandler {
    _ = isolation  // Captured, so the operation runs on the caller's isolation.
    return try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Owner.Success, any Error>) in
      owner.register(call, waiter: Waiter(caller: caller, continuation: continuation))
    }
  } onCancel: {
    owner.leave(call, caller: caller)
  }
}
