//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// A driver that a clock's timer calls back: at most one timer per target,
/// armed and moved with ``DriverClock/schedule(_:at:)``.
///
/// Not `Sendable`: a target is a driver's lock-protected storage, and clocks
/// keep it only behind their own lock.
@usableFromInline
protocol TimerTarget: AnyObject {
  /// The target's timer fired. `onTimerThread` is true on ``TimerService``'s
  /// thread, where a handler with no isolation of its own may run at once;
  /// a manual clock or a sleeping task passes false.
  func timerFired(onTimerThread: Bool)
}
