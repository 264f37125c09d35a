//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// A caller suspended in a task type's `run`: who it is, and how it is
/// answered. Answered exactly once, always after the owner's lock is released.
@usableFromInline
package struct Waiter<Success: Sendable>: Sendable {
  @usableFromInline package let caller: CallerIdentity
  @usableFromInline let continuation: UnsafeContinuation<Success, any Error>

  @inlinable
  package init(caller: CallerIdentity, continuation: UnsafeContinuation<Success, any Error>) {
    self.caller = caller
    self.continuation = continuation
  }

  /// The work it waited for ended: it gets its result.
  @inlinable
  package func resume(with result: Result<Success, any Error>) {
    continuation.resume(with: result)
  }

  /// It lost (superseded, dropped, cancelled): it gets `CancellationError`.
  @inlinable
  package func lose() {
    continuation.resume(throwing: CancellationError())
  }
}
