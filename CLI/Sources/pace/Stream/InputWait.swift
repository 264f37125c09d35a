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

/// Waiting, for the stream loop: for input, or until a policy's deadline,
/// whichever comes first. The deadline is the policy's; this only sleeps.
enum InputWait {
  /// Waits until `descriptor` has input (or has reached its end) or the clock
  /// reaches `deadline`; with no descriptor, until the deadline.
  ///
  /// - Returns: Whether the descriptor is ready to read.
  static func wait(for descriptor: Int32?, until deadline: ContinuousClock.Instant) -> Bool {
    while true {
      let remaining = ContinuousClock.now.duration(to: deadline)
      guard remaining > .zero else { return false }
      let (seconds, attoseconds) = remaining.components
      guard seconds > 0 || attoseconds >= 1_000_000_000_000_000 else {
        // Under a millisecond, poll's unit: sleep it out; input that comes
        // meanwhile is read right after.
        var pause = timespec(tv_sec: 0, tv_nsec: Int(attoseconds / 1_000_000_000))
        nanosleep(&pause, nil)
        return false
      }
      var fds = [pollfd(fd: descriptor ?? -1, events: Int16(POLLIN), revents: 0)]
      let milliseconds = Int32(min(seconds * 1_000 + attoseconds / 1_000_000_000_000_000, 86_400_000))
      let result = poll(&fds, 1, milliseconds)
      if result > 0 { return descriptor != nil }
      if result == 0 { continue }  // Timed out: the loop above checks the clock.
      if errno != EINTR { return descriptor != nil }  // Let the read report the error.
    }
  }
}
