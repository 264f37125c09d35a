//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// The driver a timer belongs to. A scheduler keeps it alive while its timer is
/// armed and hands it back to the ``TimerCallback``.
@usableFromInline
struct TimerOwner: @unchecked Sendable {
  // @unchecked Sendable: every driver guards its state with its own lock.
  // Those that are a `ManagedBuffer` (``PacerDriver``) cannot declare it: the
  // standard library marks `ManagedBuffer`'s conformance unavailable.
  @usableFromInline let object: AnyObject

  @usableFromInline
  init(_ object: AnyObject) {
    self.object = object
  }

  /// Which driver this is; a scheduler keeps one timer per owner.
  var id: ObjectIdentifier { ObjectIdentifier(object) }
}
