//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A driver's view of its clock: the current ``DriverInstant`` and a timer.
@usableFromInline
protocol DriverClock: Sendable {
  /// The time since the driver's epoch.
  var now: DriverInstant { get }

  /// Arms a timer for `deadline`. When it fires, `fire` is called with whether
  /// it runs in a task of its own (so that it may deliver there); it returns
  /// the next deadline to keep the timer armed, or `nil` to let it go, and
  /// whether the timer's task should await `deliver` before going on.
  func armTimer(
    at deadline: DriverInstant, fire: @escaping TimerFire, deliver: @escaping @Sendable () async -> Void
  ) -> ArmedTimer
}

/// A timer's callback: given whether it runs in a task, the next deadline and
/// whether that task should deliver now.
@usableFromInline
typealias TimerFire = @Sendable (_ inTask: Bool) -> (next: DriverInstant?, deliverHere: Bool)

/// The loop of a timer that sleeps in a task: sleep, fire, deliver if asked,
/// and again while there is a deadline.
func timerTaskLoop(
  from deadline: DriverInstant, sleep: @escaping @Sendable (DriverInstant) async throws -> Void,
  fire: @escaping TimerFire, deliver: @escaping @Sendable () async -> Void
) -> Task<Void, Never> {
  Task {
    var deadline = deadline
    while true {
      do {
        try await sleep(deadline)
      } catch {
        return  // Cancelled: the driver let the timer go.
      }
      let (next, deliverHere) = fire(true)
      if deliverHere { await deliver() }
      guard let next else { return }
      deadline = next
    }
  }
}

/// The driver clock for `clock`: a direct read of the kernel's clock for the
/// continuous clock on Linux, an epoch-based adapter for any other clock.
func makeDriverClock<C: Clock>(_ clock: C) -> any DriverClock where C.Duration == Duration {
  #if os(Linux)
    if C.self == ContinuousClock.self {
      return LinuxContinuousClock()
    }
  #endif
  return EpochClock(clock)
}

/// A timer a driver has armed, so it can be cancelled.
@usableFromInline
enum ArmedTimer: Sendable {
  /// A task sleeping on a real clock.
  case task(Task<Void, Never>)
  /// A timer that a manual clock runs; cancelled through `cancel`.
  case manual(cancel: @Sendable () -> Void)

  func cancel() {
    switch self {
    case .task(let task): task.cancel()
    case .manual(let cancel): cancel()
    }
  }
}

/// Any `Clock<Duration>`, measured from the instant the driver was created.
struct EpochClock<C: Clock>: DriverClock where C.Duration == Duration {
  let clock: C
  let epoch: C.Instant

  init(_ clock: C) {
    self.clock = clock
    self.epoch = clock.now
  }

  var now: DriverInstant {
    DriverInstant(nanoseconds: DriverDuration(epoch.duration(to: clock.now)).nanoseconds)
  }

  func armTimer(
    at deadline: DriverInstant, fire: @escaping TimerFire, deliver: @escaping @Sendable () async -> Void
  ) -> ArmedTimer {
    if let manual = clock as? any _ManualTimerClock {
      return Self.armManualTimer(manual, epoch: epoch, at: deadline, fire: fire)
    }
    let clock = clock
    let epoch = epoch
    return .task(
      timerTaskLoop(
        from: deadline,
        sleep: { try await clock.sleep(until: epoch.advanced(by: .nanoseconds($0.nanoseconds)), tolerance: nil) },
        fire: fire, deliver: deliver))
  }

  /// A timer on a manual clock: each firing schedules the next one, if any.
  private static func armManualTimer<Manual: _ManualTimerClock>(
    _ clock: Manual, epoch: C.Instant, at deadline: DriverInstant, fire: @escaping TimerFire
  ) -> ArmedTimer {
    // `C` is `Manual` here; the cast only recovers that for the compiler.
    guard let epoch = epoch as? Manual.Instant else { preconditionFailure("A clock's instant type changed") }
    let token = ManualTimerToken()
    @Sendable func schedule(_ deadline: DriverInstant) {
      let id = clock._scheduleTimer(at: epoch.advanced(by: .nanoseconds(deadline.nanoseconds))) {
        if let next = fire(false).next { schedule(next) }
      }
      token.set(id)
    }
    schedule(deadline)
    return .manual(cancel: { token.cancel(on: clock) })
  }
}

#if os(Linux)
  /// The continuous clock on Linux, read straight from the kernel.
  ///
  /// `ContinuousClock.now` reads `CLOCK_BOOTTIME` too, then builds a 128-bit
  /// `Duration`; reading it here as nanoseconds takes the clock off a send's
  /// cost. Timers still sleep on `ContinuousClock`, from an epoch taken at the
  /// same moment.
  struct LinuxContinuousClock: DriverClock {
    let epochNanoseconds: Int64
    let epoch: ContinuousClock.Instant

    init() {
      epoch = ContinuousClock.now
      epochNanoseconds = Self.kernelNanoseconds()
    }

    @inline(__always)
    static func kernelNanoseconds() -> Int64 {
      var time = timespec()
      clock_gettime(CLOCK_BOOTTIME, &time)
      return Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
    }

    var now: DriverInstant {
      DriverInstant(nanoseconds: Self.kernelNanoseconds() &- epochNanoseconds)
    }

    func armTimer(
      at deadline: DriverInstant, fire: @escaping TimerFire, deliver: @escaping @Sendable () async -> Void
    ) -> ArmedTimer {
      let epoch = epoch
      return .task(
        timerTaskLoop(
          from: deadline,
          sleep: { try await ContinuousClock().sleep(until: epoch.advanced(by: .nanoseconds($0.nanoseconds))) },
          fire: fire, deliver: deliver))
    }
  }
#endif

/// The id of the manual timer that is armed now; cancelling it stops the chain.
private final class ManualTimerToken: Sendable {
  private let state = LockedState<(id: UInt64?, isCancelled: Bool)>((nil, false))

  func set(_ id: UInt64) {
    state.withLock { $0.id = id }
  }

  func cancel(on clock: some _ManualTimerClock) {
    let id = state.withLock { state -> UInt64? in
      state.isCancelled = true
      return state.id
    }
    if let id { clock._cancelTimer(id) }
  }
}
