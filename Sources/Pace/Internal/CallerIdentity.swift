//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// The task a call waits in, as an identity: what a cancellation handler uses
/// to find its call, so that a call needs no allocation of its own to be
/// found.
///
/// Only ever compared while that task waits in the call (a cancellation
/// handler runs only then), so the address cannot belong to another task at
/// that moment. A task waits in one call at a time; a handler that outlives
/// its call can only meet a later call of the same task, and that task is
/// cancelled, so the later call is cancelled rightly.
@usableFromInline
package struct CallerIdentity: Hashable, Sendable {
  @usableFromInline let address: UInt

  /// The identity of the task this runs in.
  @inlinable
  package static var current: CallerIdentity {
    withUnsafeCurrentTask { task in
      // `UnsafeCurrentTask` holds the task's address and nothing else; it is
      // not `Sendable`, so the handler keeps the address.
      guard let task else { preconditionFailure("an async function always runs in a task") }
      return CallerIdentity(address: unsafeBitCast(task, to: UInt.self))
    }
  }

  @inlinable
  package init(address: UInt) {
    self.address = address
  }
}
