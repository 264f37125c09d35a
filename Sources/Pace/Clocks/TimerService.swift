//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

#if os(Linux)
  import CPaceLinux
  import Glibc

  /// The timers of every pacer and paced sequence on the continuous clock,
  /// in one heap, run by one thread that sleeps on a `timerfd`.
  ///
  /// Why a thread of its own, rather than a sleeping task per pacer:
  /// - **Memory.** A pending pacer costs a heap entry (32 bytes, and its
  ///   place in a dictionary), not a task and its dispatch timer.
  /// - **Latency.** The thread wakes on the kernel's timer itself. A `timerfd`
  ///   has no timer slack (a `Task.sleep`, a `poll` timeout or a condition
  ///   variable gets 50 µs of it by default), and a handler with no isolation
  ///   runs on this thread at once, with no hop to another thread and no task
  ///   created for it.
  ///
  /// The thread only takes the service's lock to pop what is due, and never
  /// holds it while it calls a callback, so a driver may arm its timer again
  /// from its callback.
  final class TimerService: Sendable {
    /// The process's timer service; `nil` if the kernel refused a `timerfd`
    /// or a thread, in which case the continuous clock sleeps in tasks.
    static let shared: TimerService? = TimerService()

    private struct State {
      var heap = TimerHeap()
      /// The deadline the `timerfd` is armed for; `Int64.max` when disarmed.
      var armedDeadline = Int64.max
    }

    private let state = LockedState(State())
    private let timerDescriptor: Int32

    private init?() {
      let descriptor = c_pace_timerfd_create()
      guard descriptor >= 0 else { return nil }
      timerDescriptor = descriptor
      guard Self.startThread(running: self) else {
        close(descriptor)
        return nil
      }
    }

    /// Arms `owner`'s timer for `deadline` (nanoseconds of `CLOCK_BOOTTIME`),
    /// or moves it there. `fire` is kept until it is called or replaced.
    func schedule(_ owner: TimerOwner, at deadline: Int64, fire: @escaping TimerCallback) {
      state.withLock { state in
        state.heap.schedule(owner, at: deadline, fire: fire)
        // Int64.max is "never": keep it in the heap, but no need to wake for it.
        if deadline < state.armedDeadline, deadline < .max {
          state.armedDeadline = deadline
          c_pace_timerfd_arm(timerDescriptor, deadline)
        }
      }
    }

    /// Disarms `owner`'s timer, if it is armed.
    func cancel(_ owner: ObjectIdentifier) {
      // The owner is released here, outside the lock: this may be the last reference to it.
      let removed = state.withLock { $0.heap.remove(owner) }
      _ = removed
    }

    /// The deadline of `owner`'s timer, for tests.
    func deadline(of owner: ObjectIdentifier) -> Int64? {
      state.withLock { $0.heap.deadline(of: owner) }
    }

    // MARK: The thread

    private static func startThread(running service: TimerService) -> Bool {
      var attributes = pthread_attr_t()
      pthread_attr_init(&attributes)
      defer { pthread_attr_destroy(&attributes) }
      pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
      let context = Unmanaged.passRetained(service)
      var thread = pthread_t()
      let result = pthread_create(
        &thread, &attributes,
        { context in
          let service = Unmanaged<TimerService>.fromOpaque(context!).takeRetainedValue()
          c_pace_name_this_thread("Pace timers")
          service.run()
        }, context.toOpaque())
      guard result == 0 else {
        context.release()
        return false
      }
      return true
    }

    /// Runs the timer loop for the life of the process.
    private func run() -> Never {
      while true {
        // The loop runs in one task that never leaves this thread, so that a
        // handler with no isolation is awaited inline, with no task per
        // firing. Should the task ever suspend (it would then resume on the
        // cooperative pool), `loop` returns as soon as it notices, and this
        // thread starts another.
        Task.immediate { await self.loop(on: pthread_self()) }
      }
    }

    /// Waits for the `timerfd`, fires what is due, runs the deliveries that
    /// belong on this thread, and again.
    ///
    /// It takes the due timers out one at a time, and arms the `timerfd` for
    /// the next only once they have all fired: what runs between the wake-up
    /// and the first handler is kept short, since it runs on cold caches.
    private func loop(on thread: pthread_t) async {
      var expirations: UInt64 = 0
      while true {
        let count = read(timerDescriptor, &expirations, MemoryLayout<UInt64>.size)
        if count < 0 {
          let error = errno
          // EINTR: a signal; EAGAIN: the timer was re-armed after it woke the read.
          precondition(error == EINTR || error == EAGAIN, "Pace's timer thread cannot read its timerfd: errno \(error)")
        }
        let now = LinuxContinuousClock.kernelNanoseconds()
        var isWakeUp = true
        while let due = state.withLock({ takeDue(at: now, isWakeUp: isWakeUp, &$0) }) {
          isWakeUp = false
          if let delivery = due.fire(due.owner.object, true) { await delivery(due.owner.object) }
        }
        guard pthread_equal(pthread_self(), thread) != 0 else { return }
      }
    }

    /// The earliest timer due at `now`, taken out of the heap; or, once none
    /// is left, `nil`, with the `timerfd` armed for the next.
    private func takeDue(at now: Int64, isWakeUp: Bool, _ state: inout State) -> TimerHeap.Entry? {
      // At a wake-up the timerfd has expired: a `schedule` from then on arms it again.
      if isWakeUp { state.armedDeadline = .max }
      if let due = state.heap.popFirst(dueAt: now) { return due }
      if let next = state.heap.earliestDeadline, next < state.armedDeadline, next < .max {
        state.armedDeadline = next
        c_pace_timerfd_arm(timerDescriptor, next)
      }
      return nil
    }
  }
#endif
