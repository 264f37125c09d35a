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

/// The stream loop's clock: `ContinuousClock`'s time (on Linux the boot
/// clock, which goes on while the machine sleeps, as Pace's timers do), in
/// the drivers' instant (whole nanoseconds in an `Int64`).
///
/// Not `ContinuousClock.Instant` itself: the standard library keeps its
/// layout private, so every optional deadline the stages hand back would be
/// copied and compared through the runtime, line after line;
/// `DriverInstant` is two instructions.
enum StreamClock {
  static var now: DriverInstant {
    var time = timespec()
    #if os(Linux)
      clock_gettime(CLOCK_BOOTTIME, &time)
    #else
      clock_gettime(CLOCK_MONOTONIC, &time)
    #endif
    return DriverInstant(nanoseconds: Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec))
  }
}
