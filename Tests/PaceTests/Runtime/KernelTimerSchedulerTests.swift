//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

#if os(Linux) && !PACE_PORTABLE_RUNTIME
  import Glibc
  import Synchronization
  import Testing

  @testable import Pace

  /// The kernel scheduler's timer thread on the real clock. Every deadline here is already due
  /// (or an hour away), but one a few milliseconds off, for the early wake-up; no outcome
  /// depends on how long anything takes.
  @Suite struct KernelTimerSchedulerTests {
    /// Records each firing and resumes whoever waits for the first.
    final class Target: Sendable {
      private let state = LockedState<
        (fired: [Bool], firedAt: [DriverInstant], waiter: CheckedContinuation<Bool, Never>?)
      >(([], [], nil))

      func timerFired(onTimerThread: Bool) -> TimerDelivery? {
        let now = KernelTimerScheduler.shared?.now
        let waiter = state.withLock { state in
          state.fired.append(onTimerThread)
          if let now { state.firedAt.append(now) }
          defer { state.waiter = nil }
          return state.waiter
        }
        waiter?.resume(returning: onTimerThread)
        return nil
      }

      /// Whether the first firing was on the timer thread, once it has come.
      func firstFiring() async -> Bool {
        await withCheckedContinuation { continuation in
          let fired = state.withLock { state -> Bool? in
            if let first = state.fired.first { return first }
            state.waiter = continuation
            return nil
          }
          if let fired { continuation.resume(returning: fired) }
        }
      }

      var firings: Int { state.withLock { $0.fired.count } }
      /// The scheduler's clock as each firing began.
      var firedAt: [DriverInstant] { state.withLock { $0.firedAt } }
      var id: ObjectIdentifier { ObjectIdentifier(self) }
      var owner: TimerOwner { TimerOwner(self) }
      static let fire: TimerCallback = { target, onTimerThread in
        (target as! Target).timerFired(onTimerThread: onTimerThread)
      }
    }

    let scheduler = try! #require(KernelTimerScheduler.shared)

    /// The scheduler's instant `nanoseconds` from now.
    func fromNow(_ nanoseconds: Int64) -> DriverInstant {
      DriverInstant(nanoseconds: scheduler.now.nanoseconds + nanoseconds)
    }

    @Test func aDueTimer_firesOnce_onTheTimerThread() async {
      let target = Target()
      scheduler.arm(target.owner, at: fromNow(0), fire: Target.fire)
      #expect(await target.firstFiring())
      #expect(scheduler.deadline(of: target.id) == nil)
      // A second, later timer on another target fires after the first is gone,
      // so the first did not fire twice.
      let later = Target()
      scheduler.arm(later.owner, at: fromNow(0), fire: Target.fire)
      _ = await later.firstFiring()
      #expect(target.firings == 1)
    }

    @Test func aDeadlineFurtherOffThanTheLead_wakesTheThreadThatMuchAhead_elseAtTheDeadline() {
      let lead = KernelTimerScheduler.wakeLead
      let now: Int64 = 1_000_000_000
      // A lone deadline 20 ms off: first woken ahead of it, with the rest to sleep.
      #expect(KernelTimerScheduler.wakeTime(for: now + 20_000_000, now: now) == now + 20_000_000 - lead)
      // Once woken ahead, or when the deadline is close or past: woken at the deadline itself.
      #expect(KernelTimerScheduler.wakeTime(for: now + lead, now: now) == now + lead)
      #expect(KernelTimerScheduler.wakeTime(for: now + lead - 1, now: now) == now + lead - 1)
      #expect(KernelTimerScheduler.wakeTime(for: now + lead + 1, now: now) == now + 1)
      #expect(KernelTimerScheduler.wakeTime(for: now, now: now) == now)
      #expect(KernelTimerScheduler.wakeTime(for: now - 5, now: now) == now - 5)
      // No wrap-around at the ends of the range: never an early wake after the deadline.
      #expect(KernelTimerScheduler.wakeTime(for: .min + 1, now: now) == .min + 1)
      #expect(KernelTimerScheduler.wakeTime(for: .max - 1, now: now) == .max - 1 - lead)
      // Awake within the lead of a deadline, and only then, the thread is ahead of it.
      #expect(KernelTimerScheduler.isAhead(of: now + lead, now: now))
      #expect(KernelTimerScheduler.isAhead(of: now + 1, now: now))
      #expect(!KernelTimerScheduler.isAhead(of: now + lead + 1, now: now))
      #expect(!KernelTimerScheduler.isAhead(of: now, now: now))
      #expect(!KernelTimerScheduler.isAhead(of: .max, now: now))
    }

    @Test func aTimerAFewMillisecondsOff_firesAtOrAfterItsDeadline() async {
      // The thread first wakes ahead of this deadline, finds nothing due, and
      // sleeps again: the timer still fires once, and not before its deadline.
      let target = Target()
      let deadline = fromNow(3_000_000)
      scheduler.arm(target.owner, at: deadline, fire: Target.fire)
      _ = await target.firstFiring()
      #expect(target.firedAt.count == 1)
      #expect(target.firedAt.allSatisfy { $0 >= deadline })
    }

    @Test func aCancelledTimer_isGone() {
      let target = Target()
      scheduler.arm(target.owner, at: fromNow(3_600_000_000_000), fire: Target.fire)
      #expect(scheduler.deadline(of: target.id) != nil)
      scheduler.disarm(target.id)
      #expect(scheduler.deadline(of: target.id) == nil)
    }

    @Test func movingATimerEarlier_wakesTheThreadForIt() async {
      let target = Target()
      // The thread sleeps for the hour-long deadline, then must wake for the new one.
      scheduler.arm(target.owner, at: fromNow(3_600_000_000_000), fire: Target.fire)
      scheduler.arm(target.owner, at: fromNow(0), fire: Target.fire)
      #expect(await target.firstFiring())
      #expect(target.firings == 1)
    }

    @Test func aDeadlineOfNever_staysArmedAndDoesNotFire() async {
      let never = Target()
      scheduler.arm(never.owner, at: DriverInstant(nanoseconds: .max), fire: Target.fire)
      #expect(scheduler.deadline(of: never.id) == .max)
      // A timer due now: when it has fired, the thread has popped everything
      // due, so a "never" stored as anything at or before now would have fired too.
      let due = Target()
      scheduler.arm(due.owner, at: fromNow(0), fire: Target.fire)
      _ = await due.firstFiring()
      #expect(never.firings == 0)
      #expect(scheduler.deadline(of: never.id) == .max)
      scheduler.disarm(never.id)
    }

    /// The name the kernel has for the calling thread.
    static func threadName() -> String {
      let descriptor = open("/proc/thread-self/comm", O_RDONLY)
      defer { close(descriptor) }
      var bytes = [UInt8](repeating: 0, count: 32)
      let count = read(descriptor, &bytes, bytes.count)
      return String(decoding: bytes[0..<max(0, count)], as: UTF8.self).filter { $0 != "\n" }
    }

    @Test func anInlineHandler_runsOnTheTimerThread_andMaySendAgain() async throws {
      let (calls, called) = AsyncStream<(value: Int, thread: String)>.makeStream()
      let box = LockedState<Debouncer<Int>?>(nil)
      let debouncer = Debouncer<Int>(for: .milliseconds(1), delivery: .inline) { value in
        called.yield((value, Self.threadName()))
        // From the timer thread, into the same pacer: arms its timer again.
        if value == 1 { box.withLock { $0 }?.send(2) }
      }
      box.withLock { $0 = debouncer }
      debouncer.send(1)
      var iterator = calls.makeAsyncIterator()
      let first = await iterator.next()
      let second = await iterator.next()
      #expect(first?.value == 1)
      #expect(second?.value == 2)
      #expect(first?.thread == "Pace timers")
      #expect(second?.thread == "Pace timers")
      box.withLock { $0 = nil }
    }

    @Test func aKeyedPacer_honoursItsDelivery_inlineOnTheTimerThread_elseOffIt() async throws {
      let (calls, called) = AsyncStream<(key: Int, thread: String)>.makeStream()
      let inline = KeyedPacer(.debounce(for: .milliseconds(1)), delivery: .inline) { (key: Int, _: Int) in
        called.yield((key, Self.threadName()))
      }
      let separate = KeyedPacer(.debounce(for: .milliseconds(1))) { (key: Int, _: Int) in
        called.yield((key + 100, Self.threadName()))
      }
      inline.send(0, for: 1)
      separate.send(0, for: 1)
      var threads: [Int: String] = [:]
      var iterator = calls.makeAsyncIterator()
      for _ in 0..<2 {
        if let call = await iterator.next() { threads[call.key] = call.thread }
      }
      #expect(threads[1] == "Pace timers")
      #expect(threads[101] != nil && threads[101] != "Pace timers")
      withExtendedLifetime((inline, separate)) {}
    }

    @Test func aHandlerByDefault_neverRunsOnTheTimerThread() async throws {
      let (calls, called) = AsyncStream<String>.makeStream()
      let debouncer = Debouncer<Int>(for: .milliseconds(1)) { _ in called.yield(Self.threadName()) }
      let throttler = Throttler<Int>(for: .milliseconds(1)) { _ in called.yield(Self.threadName()) }
      debouncer.send(1)  // Delivered when its timer fires.
      throttler.send(1)  // Leading: delivered from `send`.
      throttler.send(2)  // Trailing: delivered when its timer fires.
      var iterator = calls.makeAsyncIterator()
      for _ in 0..<3 {
        // One of Pace's delivery threads: neither the timer thread nor the cooperative pool.
        #expect(await iterator.next() == "Pace deliveries")
      }
      withExtendedLifetime((debouncer, throttler)) {}
    }

    @Test func blockingHandlers_eachGetADeliveryThread() async throws {
      // Three handlers that block until released: each must start at once,
      // on a thread of its own, and a fourth pacer is still called.
      let release = Atomic<Bool>(false)
      let (started, start) = AsyncStream<Int>.makeStream()
      let pacers = (0..<3).map { index in
        Debouncer<Int>(for: .milliseconds(1)) { _ in
          start.yield(index)
          while !release.load(ordering: .acquiring) { usleep(1_000) }
        }
      }
      for pacer in pacers { pacer.send(1) }
      var iterator = started.makeAsyncIterator()
      var seen = Set<Int>()
      for _ in 0..<3 { if let index = await iterator.next() { seen.insert(index) } }
      #expect(seen == [0, 1, 2])
      let (values, delivered) = AsyncStream<Int>.makeStream()
      let other = Debouncer<Int>(for: .milliseconds(1)) { delivered.yield($0) }
      other.send(4)
      #expect(await PacerRealClockTests.firstValue(of: values) == 4)
      release.store(true, ordering: .releasing)
      withExtendedLifetime((pacers, other)) {}
    }

    @Test func releasingAPendingPacer_disarmsItsTimer_andFreesItsState() throws {
      weak var weakDriver: PacerDriver<DebounceStateMachine<Int, DriverInstant>>?
      do {
        let debouncer = Debouncer<Int>(for: .seconds(3_600)) { _ in }
        debouncer.send(1)
        let driver = debouncer.driver.storage
        #expect(scheduler.deadline(of: ObjectIdentifier(driver)) != nil)
        weakDriver = driver
      }
      // The heap's entry held the driver while the timer was armed; the
      // pacer's deinit disarmed it, so nothing holds the driver any more.
      #expect(weakDriver == nil)
    }

    @Test func aPacedSequence_emitsWhenItsTimerFires_whileTheBaseIsStillOpen() async throws {
      let (base, input) = AsyncStream<Int>.makeStream()
      // 250 ms: 1 and 2 stay one burst even when a loaded machine (or
      // ThreadSanitizer) pauses the task that takes them between the two.
      var iterator = base.debounced(for: .milliseconds(250)).makeAsyncIterator()
      input.yield(1)
      input.yield(2)
      // The base stays open, so only the timer can end the burst.
      let first = try await iterator.next()
      #expect(first == 2)
      input.yield(3)
      input.finish()
      let second = try await iterator.next()
      let end = try await iterator.next()
      #expect(second == 3)
      #expect(end == nil)
    }
  }
#endif
