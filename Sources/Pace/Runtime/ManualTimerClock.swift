//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// A clock that runs timers itself, synchronously, when a test advances it:
/// `PaceTesting`'s `VirtualClock`. Drivers on it fire their timers
/// deterministically instead of sleeping in a task, and tell it when they
/// deliver, so that a test can wait until a run has settled.
///
/// Not API: `package`, for the modules of this package only.
package protocol ManualTimerClock: Clock, Sendable where Duration == Swift.Duration {
  /// Runs `action` when the clock reaches `deadline` (after the inputs of that
  /// instant). Returns a token for ``disarmTimer(_:)``.
  func armTimer(at deadline: Instant, _ action: @escaping @Sendable () -> Void) -> UInt64
  /// Forgets a timer that has not fired yet.
  func disarmTimer(_ token: UInt64)
  /// A driver started handing values to user code.
  func deliveryStarted()
  /// A delivery announced by ``deliveryStarted()`` is done.
  func deliveryFinished()
}
