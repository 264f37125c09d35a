//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import Pace

/// Waiting, for the stream loop: for input, or until a policy's deadline,
/// whichever comes first. The deadline is the policy's; this only sleeps.
enum InputWait {
  /// Waits until `descriptor` has input (or has reached its end) or the clock
  /// reaches `deadline`; with no descriptor, until the deadline.
  ///
  /// - Returns: Whether the descriptor is ready to read.
  static func wait(for descriptor: Int32?, until deadline: DriverInstant) -> Bool {
    while true {
      let remaining = StreamClock.now.duration(to: deadline).nanoseconds
      guard remaining > 0 else { return false }
      var fds = pollfd(fd: descriptor ?? -1, events: Int16(POLLIN), revents: 0)
      guard remaining >= 1_000_000 else {
        // Under a millisecond, poll's unit. Input already there is read at
        // once (a throttle of 1ms on a file must not sleep between reads);
        // otherwise sleep it out, and input that comes meanwhile is read
        // right after.
        if descriptor != nil, poll(&fds, 1, 0) > 0 { return true }
        var pause = timespec(tv_sec: 0, tv_nsec: Int(remaining))
        nanosleep(&pause, nil)
        return false
      }
      let milliseconds = Int32(min(remaining / 1_000_000, 86_400_000))
      let result = poll(&fds, 1, milliseconds)
      if result > 0 { return descriptor != nil }
      if result == 0 { continue }  // Timed out: the loop above checks the clock.
      if errno != EINTR { return descriptor != nil }  // Let the read report the error.
    }
  }
}
