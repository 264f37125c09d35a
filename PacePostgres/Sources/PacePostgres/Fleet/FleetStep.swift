//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace

/// A fleet pacer's built-in policy, in the terms `pace_send_step` takes: a
/// send that emits nothing (one that starts a debounce's burst or a
/// throttle's window without a leading edge, or one that goes on with a
/// burst or a window) is stepped by the database in the send's own
/// statement, with no fold.
///
/// Only a plain `DebounceStateMachine` or `ThrottleStateMachine` whose
/// intervals are whole microseconds (the precision of the database's
/// instants) is stepped there; stages and policies of one's own are folded.
struct FleetStep: Sendable, Equatable {
  enum Policy: String, Sendable {
    case debounce
    case throttle
  }

  var policy: Policy
  /// Microseconds.
  var interval: Int64
  /// A debounce's max-wait, microseconds, at least `interval`, or none.
  var maxWait: Int64?
  var leading: Bool
  var trailing: Bool

  init(policy: Policy, interval: Int64, maxWait: Int64? = nil, leading: Bool, trailing: Bool) {
    self.policy = policy
    self.interval = interval
    self.maxWait = maxWait
    self.leading = leading
    self.trailing = trailing
  }

  /// The step of `machine`, if it is a plain debounce or throttle of whole
  /// microseconds.
  init?<Machine: PacingStateMachine>(_ machine: Machine) where Machine.Instant == DriverInstant {
    // A bound far from overflow (the database's arithmetic does not
    // saturate, as the fold's does): an interval of more than ten years is
    // left to the fold. So is a zero interval, whose burst or window ends
    // at the send's own instant: the fold emits it at once.
    let tenYears: Int64 = 10 * 366 * 86_400 * 1_000_000_000
    func micros(_ duration: DriverDuration) -> Int64? {
      let nanoseconds = duration.nanoseconds
      guard nanoseconds > 0, nanoseconds <= tenYears, nanoseconds % 1000 == 0 else { return nil }
      return nanoseconds / 1000
    }
    if let debounce = machine as? DebounceStateMachine<Machine.Value, DriverInstant> {
      guard let interval = micros(debounce.interval) else { return nil }
      var maxWait: Int64?
      if let wait = debounce.maxWait {
        guard let micros = micros(wait) else { return nil }
        maxWait = micros
      }
      self.init(policy: .debounce, interval: interval, maxWait: maxWait, leading: debounce.leading, trailing: debounce.trailing)
    } else if let throttle = machine as? ThrottleStateMachine<Machine.Value, DriverInstant> {
      guard let interval = micros(throttle.interval) else { return nil }
      self.init(policy: .throttle, interval: interval, leading: throttle.leading, trailing: throttle.trailing)
    } else {
      return nil
    }
  }
}
