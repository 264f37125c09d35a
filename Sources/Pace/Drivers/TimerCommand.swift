//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// What a ``DriverCore`` asks its shell to do with the shell's one timer.
@usableFromInline
enum TimerCommand: Hashable, Sendable {
  /// Arm the timer (or move it) to fire at `deadline`.
  case arm(at: DriverInstant)
  /// Let the armed timer go.
  case disarm
}
