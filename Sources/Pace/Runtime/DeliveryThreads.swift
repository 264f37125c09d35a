//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

#if os(Linux) && !PACE_PORTABLE_RUNTIME
  import CPaceLinux
  import Glibc
  import Synchronization

  /// Where a handler with no isolation of its own runs by default on Linux:
  /// a small pool of Pace's own threads that grows whenever every thread is
  /// busy, so that a handler that blocks or runs long never delays another
  /// pacer, and never holds a thread of Swift's cooperative pool (which has
  /// one thread per core: a blocking handler there would stall every task in
  /// the process).
  ///
  /// A delivery is handed straight to an idle thread, which wakes on a futex
  /// of its own; with none idle, a new thread starts (up to
  /// ``maximumThreadCount``; past that, deliveries wait their turn). Threads
  /// stay for the life of the process, as many as deliveries once ran at the
  /// same time. Each runs one long-lived task that awaits the deliveries in
  /// turn, as the timer thread does, so a delivery allocates nothing. When
  /// the timer thread wakes ahead of a deadline, it readies the thread the
  /// next delivery will go to (``ready()``), which then waits on a core that
  /// has just run, and wakes fast.
  @usableFromInline
  final class DeliveryThreads: Sendable {
    /// The process's delivery threads; `nil` when the kernel refused the first
    /// thread, in which case deliveries run in tasks.
    @usableFromInline
    static let shared: DeliveryThreads? = DeliveryThreads(startingOneThread: ())

    /// More blocked handlers than this at once wait for one of them to return.
    static let maximumThreadCount = 64

    /// A delivery: the driver, and the function of it that drains its outbox.
    struct Item {
      var owner: TimerOwner
      var delivery: TimerDelivery
    }

    /// What a worker's futex word says.
    enum Word {
      /// Asleep until an item comes.
      static let idle: UInt32 = 0
      /// An item was handed over.
      static let assigned: UInt32 = 1
      /// Woken by ``DeliveryThreads/ready()``: an item may come soon.
      static let ready: UInt32 = 2
    }

    /// How long a thread woken by ``ready()`` waits for an item before it
    /// goes back to sleep until one comes.
    static let readyWait: Int64 = 1_000_000

    /// One thread: the futex word it sleeps on, and the item handed to it.
    final class Worker: @unchecked Sendable {
      // @unchecked Sendable: `assigned` is read and written only under the
      // pool's lock; `word` is the futex word, written with release ordering
      // and read by the kernel and with acquire ordering.
      let word = UnsafeMutablePointer<UInt32>.allocate(capacity: 1)
      var assigned: Item?

      init() {
        word.initialize(to: 0)
      }
    }

    private struct State {
      /// Deliveries no thread has taken yet (only when every thread is busy).
      var waiting: [Item] = []
      var waitingHead = 0
      /// Threads sleeping, waiting for an item.
      var idle: [Worker] = []
      var threadCount = 0
    }

    private let state = LockedState(State())

    /// Whether a pool was ever started (``shared`` is, by the first delivery
    /// that needs it): a process whose handlers all run inline or on actors
    /// has no thread to ready.
    private static let isStarted = Atomic<Bool>(false)

    /// ``ready()`` on ``shared``, if a pool was ever started.
    static func readySharedIfStarted() {
      if isStarted.load(ordering: .relaxed) { shared?.ready() }
    }

    /// Starts a pool with one thread; `nil` if the kernel refused it. Besides
    /// ``shared``, only tests make one, to watch a pool no one else uses.
    init?(startingOneThread: Void) {
      state.withLock { $0.threadCount = 1 }
      guard startDetachedThread(named: "Pace deliveries", { [self] in run(Worker()) }) else { return nil }
      Self.isStarted.store(true, ordering: .relaxed)
    }

    /// The futex word of the thread the next delivery will go to, if one is
    /// idle (``Word``); for tests.
    var nextIdleWord: UInt32? {
      state.withLock { state in state.idle.last.map { c_pace_load_acquire($0.word) } }
    }

    /// Runs `delivery` of `owner` on a thread of the pool, at once.
    @usableFromInline
    func run(_ delivery: @escaping TimerDelivery, of owner: TimerOwner) {
      let item = Item(owner: owner, delivery: delivery)
      let (woken, startsThread) = state.withLock { state -> (Worker?, Bool) in
        if let worker = state.idle.popLast() {
          worker.assigned = item
          c_pace_store_release(worker.word, Word.assigned)
          return (worker, false)
        }
        state.waiting.append(item)
        guard state.threadCount < Self.maximumThreadCount else { return (nil, false) }
        state.threadCount += 1
        return (nil, true)
      }
      if let woken { c_pace_futex_wake_one(woken.word) }
      if startsThread, !startDetachedThread(named: "Pace deliveries", { [self] in run(Worker()) }) {
        state.withLock { $0.threadCount -= 1 }  // The waiting item goes to the next thread that is free.
      }
    }

    /// A thread's life: take an item (a waiting one, or one handed over while
    /// asleep), run it, and again.
    private func run(_ worker: Worker) -> Never {
      while true {
        // One task for many deliveries, as on the timer thread; should it ever
        // suspend, `loop` returns when it notices, and this starts another.
        Task.immediate { await self.loop(worker, on: pthread_self()) }
      }
    }

    private func loop(_ worker: Worker, on thread: pthread_t) async {
      while true {
        let item = next(for: worker)
        await item.delivery(item.owner.object)
        guard pthread_equal(pthread_self(), thread) != 0 else { return }
      }
    }

    /// Wakes the thread that the next delivery will go to, if it sleeps, so
    /// that it waits for that delivery for a while (``readyWait``) on a core
    /// that has just run. The timer thread calls it when it wakes ahead of a
    /// deadline (``KernelTimerScheduler/wakeLead``): a thread woken from a
    /// long sleep wakes late, one that has just slept wakes fast.
    func ready() {
      let woken = state.withLock { state -> Worker? in
        guard let worker = state.idle.last, c_pace_load_acquire(worker.word) == Word.idle else { return nil }
        c_pace_store_release(worker.word, Word.ready)
        return worker
      }
      if let woken { c_pace_futex_wake_one(woken.word) }
    }

    /// The next item for `worker`: a waiting one, or, after sleeping, the one
    /// handed to it.
    private func next(for worker: Worker) -> Item {
      let waiting = state.withLock { state -> Item? in
        if state.waitingHead < state.waiting.count {
          defer {
            state.waitingHead += 1
            if state.waitingHead == state.waiting.count { (state.waiting, state.waitingHead) = ([], 0) }
          }
          return state.waiting[state.waitingHead]
        }
        c_pace_store_release(worker.word, Word.idle)
        state.idle.append(worker)
        return nil
      }
      if let waiting { return waiting }
      while true {
        switch c_pace_load_acquire(worker.word) {
        case Word.idle:
          c_pace_futex_wait(worker.word, Word.idle)  // Returns at once if the word changed meanwhile.
        case Word.ready:
          c_pace_futex_wait_for(worker.word, Word.ready, Self.readyWait)
          // No item came: back to sleep until one does, unless one came just now.
          state.withLock { _ in
            if c_pace_load_acquire(worker.word) == Word.ready { c_pace_store_release(worker.word, Word.idle) }
          }
        default:
          if let item = state.withLock({ _ in worker.assigned.take() }) { return item }
        }
      }
    }
  }
#endif
