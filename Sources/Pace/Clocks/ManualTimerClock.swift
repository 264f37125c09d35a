//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// A clock that runs timers itself, synchronously, when a test advances it.
///
/// Not API (the leading underscore says so): `PaceTesting`'s virtual clock
/// adopts it so that drivers fire their timers deterministically instead of
/// sleeping in a task.
public protocol _ManualTimerClock: Clock, Sendable where Duration == Swift.Duration {
  /// Runs `action` when the clock reaches `deadline` (after the inputs of that
  /// instant). Returns a token for ``_cancelTimer(_:)``.
  func _scheduleTimer(at deadline: Instant, _ action: @escaping @Sendable () -> Void) -> UInt64
  /// Forgets a timer that has not fired yet.
  func _cancelTimer(_ token: UInt64)
}
