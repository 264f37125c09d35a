//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace

/// A fleet pacer's debounce, in the terms `pace_send_debounce` takes: a
/// send that starts a burst without a leading edge, or one that continues
/// a burst, is stepped by the database in the send's own statement, with
/// no fold.
///
/// Only a plain `DebounceStateMachine` whose interval and max-wait are
/// whole microseconds (the precision of the database's instants) is
/// stepped there; stages and policies of one's own are folded.
struct FleetDebounceStep: Sendable, Equatable {
  /// Microseconds.
  var interval: Int64
  /// Microseconds, at least `interval`, or none.
  var maxWait: Int64?
  var leading: Bool
  var trailing: Bool

  init(interval: Int64, maxWait: Int64?, leading: Bool, trailing: Bool) {
    self.interval = interval
    self.maxWait = maxWait
    self.leading = leading
    self.trailing = trailing
  }

  /// The step of `machine`, if it is a plain debounce of whole microseconds.
  init?<Machine: PacingStateMachine>(_ machine: Machine) where Machine.Instant == DriverInstant {
    guard let debounce = machine as? DebounceStateMachine<Machine.Value, DriverInstant> else { return nil }
    // A bound far from overflow: an interval of more than a century is
    // left to the fold, whose arithmetic saturates.
    let century: Int64 = 100 * 366 * 86_400 * 1_000_000_000
    func micros(_ duration: DriverDuration) -> Int64? {
      let nanoseconds = duration.nanoseconds
      guard nanoseconds >= 0, nanoseconds <= century, nanoseconds % 1000 == 0 else { return nil }
      return nanoseconds / 1000
    }
    guard let interval = micros(debounce.interval) else { return nil }
    self.interval = interval
    if let maxWait = debounce.maxWait {
      guard let micros = micros(maxWait) else { return nil }
      self.maxWait = micros
    } else {
      self.maxWait = nil
    }
    leading = debounce.leading
    trailing = debounce.trailing
  }
}
