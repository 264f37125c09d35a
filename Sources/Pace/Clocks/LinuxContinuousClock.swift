//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

#if os(Linux)
  import Glibc

  /// The continuous clock on Linux, read straight from the kernel, with its
  /// pacer timers on ``TimerService``.
  ///
  /// `ContinuousClock.now` reads `CLOCK_BOOTTIME` too, then builds a 128-bit
  /// `Duration`; reading it here as nanoseconds takes the clock off a send's
  /// cost. One instance serves the whole process, from one epoch, for pacers
  /// and sequences alike.
  final class LinuxContinuousClock: DriverClock {
    /// The process's instance; `nil` when there is no timer service.
    static let shared: LinuxContinuousClock? = TimerService.shared.map(LinuxContinuousClock.init)

    let service: TimerService
    let epochNanoseconds: Int64

    private init(service: TimerService) {
      self.service = service
      epochNanoseconds = Self.kernelNanoseconds()
    }

    /// `CLOCK_BOOTTIME` in nanoseconds: the time since boot, sleep included.
    @inline(__always)
    static func kernelNanoseconds() -> Int64 {
      var time = timespec()
      clock_gettime(CLOCK_BOOTTIME, &time)
      return Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
    }

    var now: DriverInstant {
      DriverInstant(nanoseconds: Self.kernelNanoseconds() &- epochNanoseconds)
    }

    func schedule(_ owner: TimerOwner, at deadline: DriverInstant, fire: @escaping TimerCallback) {
      // Saturating: a deadline of "never" stays never.
      let (kernelDeadline, overflow) = epochNanoseconds.addingReportingOverflow(deadline.nanoseconds)
      service.schedule(owner, at: overflow ? .max : kernelDeadline, fire: fire)
    }

    func unschedule(_ owner: ObjectIdentifier) {
      service.cancel(owner)
    }
  }
#endif
