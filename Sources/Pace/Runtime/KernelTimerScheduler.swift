//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

#if os(Linux) && !PACE_PORTABLE_RUNTIME
  import CPaceLinux
  import Glibc

  /// The continuous clock on Linux as a ``TimerScheduler``: the timers of
  /// every driver on it in one heap, run by one thread that sleeps on a
  /// `timerfd`.
  ///
  /// The time is `CLOCK_BOOTTIME` read straight from the kernel (what
  /// `ContinuousClock` reads, without building a 128-bit `Duration`), from
  /// one epoch for the whole process.
  ///
  /// Why a thread of its own, rather than a sleeping task per driver:
  /// - **Memory.** A pending pacer costs a heap entry (32 bytes, and its
  ///   place in a dictionary), not a task and its dispatch timer.
  /// - **Latency.** The thread wakes on the kernel's timer itself. A `timerfd`
  ///   has no timer slack (a `Task.sleep`, a `poll` timeout or a condition
  ///   variable gets 50 µs of it by default). A driver that opted in to inline
  ///   delivery has its handler run on this thread at once, with no hop and no
  ///   task; by default a driver delivers in a task of its own, so that a slow
  ///   handler never holds up another driver's timer.
  ///
  /// The thread only takes the scheduler's lock to pop what is due, and never
  /// holds it while it calls a callback, so a driver may arm its timer again
  /// from its callback.
  ///
  /// For a deadline further off than ``wakeLead``, the thread wakes twice:
  /// once that much ahead of it, and then at the deadline. A thread that has
  /// slept long wakes late (on a virtual machine, likely because the host
  /// has given its idle virtual CPU away); one that has just slept wakes
  /// fast. Nothing fires at the early wake-up, which only arms the timer
  /// again and readies the delivery thread the next handler may go to
  /// (``DeliveryThreads/ready()``). Timers due close together never wake
  /// early.
  final class KernelTimerScheduler: TimerScheduler, @unchecked Sendable {
    // @unchecked Sendable: its state is behind `state`'s lock; the rest is immutable.
    /// The process's scheduler; `nil` if the kernel refused a `timerfd` or a
    /// thread, in which case the continuous clock sleeps in tasks.
    static let shared: KernelTimerScheduler? = KernelTimerScheduler(startingItsThread: ())

    /// A timer in the heap: its driver, kept alive while armed, and its callback.
    struct Timer {
      var owner: TimerOwner
      var fire: TimerCallback
    }

    private struct State {
      var heap = TimerHeap<ObjectIdentifier, Timer>()
      /// The deadline the `timerfd` is armed to wake the thread for (perhaps
      /// ``KernelTimerScheduler/wakeLead`` ahead of it); `Int64.max` when disarmed.
      var armedDeadline = Int64.max
      /// Whether the thread is firing what is due: it arms the `timerfd`
      /// itself once it has caught up, so a driver that arms its next
      /// deadline from its callback costs no system call.
      var isFiring = false
    }

    /// How far ahead of a deadline the thread first wakes, when the deadline
    /// is further off than this.
    ///
    /// Measured on the CI machine (a 2-core VM) with a bare `timerfd` and a
    /// 20 ms sleep, in C (`Benchmarks/NOTES.md`): 81 to 120 µs late at p50
    /// from one sleep; 27 to 43 µs with a first wake-up 200 or 400 µs ahead,
    /// 41 to 45 µs with one 1 ms ahead. The cost, per deadline that stands
    /// alone: one more wake-up of this thread, and, in a process that has
    /// delivered on Pace's delivery threads, of one of them (which then waits
    /// up to ``DeliveryThreads/readyWait`` for an item).
    static let wakeLead: Int64 = 250_000

    private let state = LockedState(State())
    private let timerDescriptor: Int32
    private let epochNanoseconds: Int64

    private init?(startingItsThread: Void) {
      let descriptor = c_pace_timerfd_create()
      guard descriptor >= 0 else { return nil }
      timerDescriptor = descriptor
      epochNanoseconds = Self.kernelNanoseconds()
      super.init()
      guard startDetachedThread(named: "Pace timers", { [self] in run() }) else {
        close(descriptor)
        return nil
      }
    }

    /// `CLOCK_BOOTTIME` in nanoseconds: the time since boot, sleep included.
    @inline(__always)
    static func kernelNanoseconds() -> Int64 {
      var time = timespec()
      clock_gettime(CLOCK_BOOTTIME, &time)
      return Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
    }

    override var now: DriverInstant {
      DriverInstant(nanoseconds: Self.kernelNanoseconds() &- epochNanoseconds)
    }

    override func arm(_ owner: TimerOwner, at deadline: DriverInstant, fire: @escaping TimerCallback) {
      // Saturating: a deadline of "never" stays never.
      let (kernelDeadline, overflow) = epochNanoseconds.addingReportingOverflow(deadline.nanoseconds)
      let at = overflow ? Int64.max : kernelDeadline
      let replaced = state.withLock { state in
        let replaced = state.heap.arm(owner.id, at: at, payload: Timer(owner: owner, fire: fire))
        // Int64.max is "never": keep it in the heap, but no need to wake for it.
        if !state.isFiring, at < state.armedDeadline, at < .max {
          armTimerDescriptor(for: at, now: Self.kernelNanoseconds(), &state)
        }
        return replaced
      }
      _ = replaced  // Released here, outside the lock.
    }

    override func disarm(_ owner: ObjectIdentifier) {
      // The owner is released here, outside the lock: this may be the last reference to it.
      let removed = state.withLock { $0.heap.disarm(owner) }
      _ = removed
    }

    /// The deadline of `owner`'s timer, in nanoseconds of `CLOCK_BOOTTIME`, for tests.
    func deadline(of owner: ObjectIdentifier) -> Int64? {
      state.withLock { $0.heap.deadline(of: owner) }
    }

    // MARK: The thread

    /// Runs the timer loop for the life of the process.
    private func run() -> Never {
      while true {
        // The loop runs in one task that never leaves this thread, so that an
        // inline delivery is awaited right here, with no task per firing.
        // Should the task ever suspend (it would then resume on the
        // cooperative pool), `loop` returns as soon as it notices, and this
        // thread starts another.
        Task.immediate { await self.loop(on: pthread_self()) }
        // The loop suspended mid-firing: the timerfd must wake this thread's next loop.
        state.withLock { caughtUp(now: Self.kernelNanoseconds(), &$0) }
      }
    }

    /// Waits for the `timerfd`, fires what is due, runs the inline deliveries,
    /// and again.
    ///
    /// It takes the due timers out one at a time, and arms the `timerfd` for
    /// the next only once they have all fired: what runs between the wake-up
    /// and the first handler is kept short, since it runs on cold caches.
    /// Each time it reads the clock again, so that a timer that fell due
    /// while others fired (a keyed driver's next key, a millisecond on)
    /// fires in the same wake-up, with no system call to arm and wait.
    private func loop(on thread: pthread_t) async {
      var expirations: UInt64 = 0
      while true {
        let count = read(timerDescriptor, &expirations, MemoryLayout<UInt64>.size)
        if count < 0 {
          let error = errno
          // EINTR: a signal; EAGAIN: the timer was re-armed after it woke the read.
          precondition(error == EINTR || error == EAGAIN, "Pace's timer thread cannot read its timerfd: errno \(error)")
        }
        var isWakeUp = true
        while let due = state.withLock({ takeDue(at: Self.kernelNanoseconds(), isWakeUp: isWakeUp, &$0) }) {
          isWakeUp = false
          let owner = due.payload.owner.object
          if let delivery = due.payload.fire(owner, true) { await delivery(owner) }
        }
        // Woken ahead of a deadline: the delivery thread it may hand a value
        // to wakes now too, if the process delivers on those threads at all.
        if isWakeUp, state.withLock({ Self.isAhead(of: $0.armedDeadline, now: Self.kernelNanoseconds()) }) {
          DeliveryThreads.readySharedIfStarted()
        }
        guard pthread_equal(pthread_self(), thread) != 0 else { return }
      }
    }

    /// The earliest timer due at `now`, taken out of the heap; or, once none
    /// is left, `nil`, with the `timerfd` armed for the next.
    private func takeDue(at now: Int64, isWakeUp: Bool, _ state: inout State) -> TimerHeap<ObjectIdentifier, Timer>
      .Entry?
    {
      // At a wake-up the timerfd has expired: it is armed again once the thread has caught up.
      if isWakeUp { (state.armedDeadline, state.isFiring) = (.max, true) }
      if let due = state.heap.popFirst(dueAt: now) { return due }
      caughtUp(now: now, &state)
      return nil
    }

    /// Nothing is due, or the loop stopped firing: the `timerfd` is armed for the next timer.
    private func caughtUp(now: Int64, _ state: inout State) {
      state.isFiring = false
      if let next = state.heap.earliestDeadline, next < state.armedDeadline, next < .max {
        armTimerDescriptor(for: next, now: now, &state)
      }
    }

    /// Arms the `timerfd` to wake the thread for `deadline`: ``wakeLead``
    /// ahead of it if it is further off than that, else at it.
    private func armTimerDescriptor(for deadline: Int64, now: Int64, _ state: inout State) {
      state.armedDeadline = deadline
      c_pace_timerfd_arm(timerDescriptor, Self.wakeTime(for: deadline, now: now))
    }

    /// Whether a thread awake at `now` is ahead of `deadline` by no more than
    /// ``wakeLead``: the next wake-up for it is at the deadline itself.
    static func isAhead(of deadline: Int64, now: Int64) -> Bool {
      deadline > now && wakeTime(for: deadline, now: now) == deadline
    }

    /// When the thread wakes for `deadline`: ``wakeLead`` ahead of it if that
    /// is still after `now`, else at the deadline itself.
    static func wakeTime(for deadline: Int64, now: Int64) -> Int64 {
      let (early, overflow) = deadline.subtractingReportingOverflow(wakeLead)
      return !overflow && early > now ? early : deadline
    }
  }
#endif
