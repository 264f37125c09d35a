//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import KeyedTimerCandidates
import Pace
@_spi(Tools) import PaceMarbles
import PaceStageText
import PaceTesting
import Synchronization
import Testing

/// Keyed pacers against one pacer per key, on one virtual clock: every key
/// behaves as a pacer of its own, one key never delays or cancels another,
/// and a key that goes idle leaves no state behind.
@Suite(.timeLimit(.minutes(3))) struct KeyedPacerTests {
  typealias Machine = PacingPipeline<String, DriverInstant>

  /// What came out, per key: each value with its frame.
  final class Log: Sendable {
    let clock: VirtualClock
    private let state = LockedState<[Int: [String]]>([:])

    init(clock: VirtualClock) {
      self.clock = clock
    }

    func record(_ key: Int, _ value: String) {
      let frame = clock.now.frame
      state.withLock { $0[key, default: []].append("\(value)@\(frame)") }
    }

    var byKey: [Int: [String]] { state.withLock { $0 } }
  }

  /// Sends `events` (frame → key and value) through the keyed driver and
  /// through one pacer per key, then lets every timer run out.
  static func run(
    _ stages: [PacingStage<String>], keys: Range<Int>, events: [Int: [(key: Int, value: String)]],
    timers: TimerStructure = .lazyHeap
  ) async -> (keyed: Log, separate: Log, liveKeys: Int, keysMade: Int) {
    switch timers {
    case .lazyHeap: await run(stages, keys: keys, events: events, timers: LazyTimerHeap.self)
    case .eagerHeap: await run(stages, keys: keys, events: events, timers: EagerTimerHeap.self)
    case .wheel: await run(stages, keys: keys, events: events, timers: TimerWheel.self)
    }
  }

  /// The timer structures a keyed driver can run on (``KeyedTimerQueue``).
  enum TimerStructure: CaseIterable { case lazyHeap, eagerHeap, wheel }

  static func run<Timers: KeyedTimerQueue>(
    _ stages: [PacingStage<String>], keys: Range<Int>, events: [Int: [(key: Int, value: String)]],
    timers: Timers.Type
  ) async -> (keyed: Log, separate: Log, liveKeys: Int, keysMade: Int) {
    let clock = VirtualClock()
    let (keyedLog, separateLog) = (Log(clock: clock), Log(clock: clock))
    let keyed = KeyedPacerStorage<Int, Machine, Timers>(
      prototype: Machine(stages: stages, converting: DriverDuration.init), clock: clock
    ) { key, value in keyedLog.record(key, value) }
    defer { keyed.shutDown() }
    let pacers = Dictionary(
      uniqueKeysWithValues: keys.map { key in
        (key, Pacer(Machine(stages: stages, converting: DriverDuration.init), clock: clock) { value in
          separateLog.record(key, value)
        })
      })
    await clock.settle()
    let lastFrame = events.keys.max() ?? 0
    var frame = 0
    while frame <= lastFrame || clock.nextDeadline != nil {
      clock.jump(to: .frame(frame))
      for (key, value) in events[frame] ?? [] {
        keyed.send(value, for: key)
        pacers[key]!.send(value)
      }
      clock.fireDueTimers()
      await clock.settle()
      frame = frame < lastFrame ? frame + 1 : (clock.nextDeadline?.frame ?? frame + 1)
    }
    withExtendedLifetime((pacers, keyed)) {}
    return (keyedLog, separateLog, keyed.liveKeyCount, keyed.keysMade)
  }

  /// Bursts on random keys, with idle gaps long enough for keys to go and
  /// come back, and values that repeat (for distinct).
  static func randomEvents(keys: Range<Int>, using generator: inout SeededGenerator) -> [Int: [(key: Int, value: String)]] {
    var events: [Int: [(key: Int, value: String)]] = [:]
    var frame = 0
    for _ in 0..<Int.random(in: 3...5, using: &generator) {
      for _ in 0..<Int.random(in: 20...60, using: &generator) {
        for _ in 0..<Int.random(in: 0...3, using: &generator) {
          let key = Int.random(in: keys, using: &generator)
          events[frame, default: []].append((key, "v\(Int.random(in: 0...3, using: &generator))"))
        }
        frame += 1
      }
      frame += Int.random(in: 15...30, using: &generator)  // Quiet: keys settle, and go.
    }
    return events
  }

  @Test(arguments: TimerStructure.allCases)
  func everyKey_behavesAsAPacerOfItsOwn_forRandomPoliciesAndInterleavings(timers: TimerStructure) async throws {
    var generator = SeededGenerator(seed: 0x4B45_5931)
    var returningKeys = 0  // Keys dropped while idle and made again for a later burst.
    // Forty runs on the heap the library ships; a dozen on each candidate.
    for run in 0..<(timers == .lazyHeap ? 40 : 12) {
      // Half the runs a lone debounce or throttle (their keys go when idle), half a random chain.
      let chain: [StageConfiguration] =
        run.isMultiple(of: 2)
        ? [run.isMultiple(of: 4) ? PolicyPropertyTests.randomDebounce(using: &generator) : PolicyPropertyTests.randomThrottle(using: &generator)]
        : DriverMarbleTests.randomChain(using: &generator)
      let stages = try PacingStage<String>.parse(chain.flatMap(\.arguments), durations: .frames)
      let keys = 0..<Int.random(in: 50...64, using: &generator)
      let events = Self.randomEvents(keys: keys, using: &generator)
      let (keyed, separate, liveKeys, keysMade) = await Self.run(stages, keys: keys, events: events, timers: timers)
      let description = chain.map(\.description).joined(separator: " ")
      for key in keys {
        #expect(keyed.byKey[key] ?? [] == separate.byKey[key] ?? [], "run \(run), \(description), key \(key)")
      }
      if run.isMultiple(of: 2) {
        #expect(liveKeys == 0, "run \(run), \(description): \(liveKeys) keys kept after every key went idle")
        returningKeys += keysMade - Set(events.values.joined().map(\.key)).count
      }
    }
    #expect(returningKeys > 200, "keys must go and come back during the runs, not only at their end")
  }

  @Test(arguments: TimerStructure.allCases)
  func oneKeysEndlessBurst_neverDelaysAnotherKey(timers: TimerStructure) async throws {
    let stages = try PacingStage<String>.parse(["debounce", "3"], durations: .frames)
    var events: [Int: [(key: Int, value: String)]] = [:]
    for frame in 0..<100 { events[frame] = [(0, "hot")] }  // Key 0: a burst that never pauses.
    events[10, default: []].append((1, "a"))
    events[50, default: []].append((2, "b"))
    let (keyed, _, _, _) = await Self.run(stages, keys: 0..<3, events: events, timers: timers)
    #expect(keyed.byKey[1] == ["a@13"])
    #expect(keyed.byKey[2] == ["b@53"])
    #expect(keyed.byKey[0] == ["hot@102"])  // Its own burst ends when it pauses.
  }

  /// Thousands of keys due at one instant leave in one pass (the slots
  /// renumbered, the timers rebuilt): the keys that stay still fire on time.
  @Test(arguments: TimerStructure.allCases)
  func manyKeysDueAtOnce_leaveTogether_andTheOthersStillFireOnTime(timers: TimerStructure) async throws {
    let stages = try PacingStage<String>.parse(["debounce", "3"], durations: .frames)
    var events: [Int: [(key: Int, value: String)]] = [:]
    for key in 0..<2_000 {
      events[0, default: []].append((key, "v\(key)"))
      if key.isMultiple(of: 3) { events[2, default: []].append((key, "w\(key)")) }  // Its burst goes on: due at 5.
    }
    let (keyed, _, liveKeys, _) = await Self.run(stages, keys: 0..<2_000, events: events, timers: timers)
    for key in 0..<2_000 {
      #expect(keyed.byKey[key] == [key.isMultiple(of: 3) ? "w\(key)@5" : "v\(key)@3"], "key \(key)")
    }
    #expect(liveKeys == 0)
  }

  @Test func theShorthands_areKeyedPacersOfADebounceAndOfAThrottle() async {
    let clock = VirtualClock()
    let got = Mutex<[String]>([])
    let saves = KeyedDebouncer<Int, String>(for: .frames(3), clock: clock) { key, value in
      got.withLock { $0.append("debounce \(key) \(value)") }
    }
    let taps = KeyedThrottler<Int, String>(for: .frames(3), edges: .leading, clock: clock) { key, value in
      got.withLock { $0.append("throttle \(key) \(value)") }
    }
    saves.send("a", for: 1)
    saves.send("b", for: 1)
    saves.send("c", for: 2)
    taps.send("x", for: 1)
    taps.send("y", for: 1)  // In the window of "x", and leading only: dropped.
    clock.advance(to: .frame(3))
    await clock.settle()
    #expect(got.withLock { $0.sorted() } == ["debounce 1 b", "debounce 2 c", "throttle 1 x"])
    #expect(saves.pendingCount == 0 && taps.pendingCount == 0)
  }

  @Test func cancellingOneKey_dropsOnlyItsPendingValue_andIdleKeysLeaveNoState() async throws {
    let clock = VirtualClock()
    let log = Log(clock: clock)
    let keyed = KeyedPacerStorage<Int, Machine, LazyTimerHeap>(
      prototype: Machine(stages: [.debounce(for: .frames(3))], converting: DriverDuration.init), clock: clock
    ) { key, value in log.record(key, value) }
    for key in 0..<1_000 { keyed.send("v\(key)", for: key) }
    #expect(keyed.liveKeyCount == 1_000 && keyed.pendingCount == 1_000)
    keyed.cancel(key: 7)
    #expect(!keyed.isPending(key: 7) && keyed.isPending(key: 8))
    clock.advance(to: .frame(3))
    await clock.settle()
    #expect(log.byKey.count == 999 && log.byKey[7] == nil)
    #expect(keyed.liveKeyCount == 0)  // Every burst ended: nothing is kept.
    #expect(clock.pendingTimerCount == 0)
  }

  @Test func eightSenders_onOverlappingKeys_whileAnotherCancelsFlushesAndMovesTheClock() async throws {
    let clock = VirtualClock()
    let delivered = LockedState<[Int: [Int]]>([:])
    let keyed = KeyedPacerStorage<Int, Machine, LazyTimerHeap>(
      prototype: Machine(stages: [.throttle(for: .frames(2))], converting: DriverDuration.init), clock: clock
    ) { key, value in
      delivered.withLock { $0[key, default: []].append(Int(value)!) }
    }
    await withTaskGroup(of: Void.self) { group in
      for sender in 0..<8 {
        group.addTask {
          for round in 0..<500 {
            let key = (sender + round) % 32
            keyed.send(String(round * 8 + sender), for: key)  // Per sender, values only grow.
          }
        }
      }
      group.addTask {
        for round in 0..<200 {
          if round.isMultiple(of: 3) { keyed.cancel(key: round % 32) } else { keyed.flush(key: round % 32) }
          clock.advance(by: .frames(1))
          await Task.yield()
        }
      }
    }
    keyed.flushAll()
    while clock.nextDeadline != nil {
      clock.advance(to: clock.nextDeadline!)
      await clock.settle()
    }
    await clock.settle()
    let byKey = delivered.withLock { $0 }
    #expect(!byKey.isEmpty)
    for (key, values) in byKey {
      // One sender's values reach each key's handler in the order it sent them.
      for sender in 0..<8 {
        let mine = values.filter { $0 % 8 == sender }
        #expect(mine == mine.sorted(), "key \(key), sender \(sender)")
      }
    }
    #expect(keyed.liveKeyCount == 0)
  }

  /// Nothing that was held back when its key was cancelled ever arrives.
  /// Only flushes emit here (the debounce outlasts the test), so a value
  /// may arrive only if a flush of its key came after it was sent and
  /// before the key's next cancel: every send, cancel and flush is noted
  /// under one lock with the keyed pacer's call, and each value carries its
  /// key's cancel count and send count.
  @Test func eightSenders_whileKeysAreCancelledAndFlushed_nothingArrivesAfterItsCancel() async throws {
    let clock = VirtualClock()
    struct Notes {
      var cancels: [Int: Int] = [:]
      var sends: [Int: Int] = [:]
      /// For each key, each flush: the cancel count and the send count then.
      var flushes: [Int: [(cancels: Int, sends: Int)]] = [:]
    }
    let notes = LockedState(Notes())
    let delivered = LockedState<[(key: Int, cancels: Int, sends: Int)]>([])
    let keyed = KeyedPacerStorage<Int, Machine, LazyTimerHeap>(
      prototype: Machine(stages: [.debounce(for: .frames(10_000))], converting: DriverDuration.init), clock: clock
    ) { key, value in
      let parts = value.split(separator: " ").map { Int($0)! }
      delivered.withLock { $0.append((key, parts[0], parts[1])) }
    }
    await withTaskGroup(of: Void.self) { group in
      for sender in 0..<8 {
        group.addTask {
          for round in 0..<300 {
            let key = (sender * 7 + round) % 24
            notes.withLock { notes in
              let sends = notes.sends[key, default: 0] + 1
              notes.sends[key] = sends
              keyed.send("\(notes.cancels[key, default: 0]) \(sends)", for: key)
            }
          }
        }
      }
      group.addTask {
        for round in 0..<300 {
          let key = (round / 2) % 24  // Each key is cancelled, then flushed.
          notes.withLock { notes in
            if round.isMultiple(of: 2) {
              keyed.cancel(key: key)
              notes.cancels[key, default: 0] += 1
            } else {
              keyed.flush(key: key)
              notes.flushes[key, default: []].append((notes.cancels[key, default: 0], notes.sends[key, default: 0]))
            }
          }
          await Task.yield()  // Lets the senders interleave; no assertion depends on it.
        }
      }
    }
    notes.withLock { notes in
      for key in 0..<24 {  // A last value for every key, which the flush below must deliver.
        let sends = notes.sends[key, default: 0] + 1
        notes.sends[key] = sends
        keyed.send("\(notes.cancels[key, default: 0]) \(sends)", for: key)
      }
      keyed.flushAll()
      for key in 0..<24 { notes.flushes[key, default: []].append((notes.cancels[key, default: 0], notes.sends[key, default: 0])) }
    }
    await clock.settle()
    let arrivals = delivered.withLock { $0 }
    let flushes = notes.withLock { $0.flushes }
    #expect(arrivals.count >= 24)
    for arrival in arrivals {
      // A flush in the same cancel period, at or after its send, emitted it.
      let emittedByAFlush = flushes[arrival.key, default: []].contains {
        $0.cancels == arrival.cancels && $0.sends >= arrival.sends
      }
      #expect(emittedByAFlush, "key \(arrival.key): a value held back at a cancel arrived (\(arrival))")
    }
    #expect(keyed.liveKeyCount == 0)
  }

  /// A stream of values that keeps the outbox from ever emptying (each
  /// delivery sends the next, which its policy emits at once): the outbox
  /// holds what waits, not every value delivered since it last emptied.
  @Test func anOutboxThatNeverEmpties_holdsOnlyWhatWaits() async throws {
    let clock = VirtualClock()
    let largestOutbox = LockedState(0)
    let total = 20_000
    nonisolated(unsafe) var keyed: KeyedPacerStorage<Int, Machine, LazyTimerHeap>!
    keyed = KeyedPacerStorage<Int, Machine, LazyTimerHeap>(
      prototype: Machine(stages: [.filter { _ in true }], converting: DriverDuration.init), clock: clock
    ) { key, _ in
      largestOutbox.withLock { $0 = max($0, keyed.capacity.outbox) }
      if key < total { keyed.send("v", for: key + 1) }  // The next value, while this one is delivered.
    }
    keyed.send("v", for: 0)
    await clock.settle()
    #expect(largestOutbox.withLock { $0 } < 4_096)
    keyed.shutDown()
  }

  /// An actor that owns a keyed pacer, as the README's example.
  actor Documents {
    var saved: [Int: [String]] = [:]
    lazy var saves = KeyedPacer(.debounce(for: .frames(3)), clock: clock, owner: self) {
      (documents, id: Int, text: String) in documents.saved[id, default: []].append(text)
    }
    let clock: VirtualClock

    init(clock: VirtualClock) {
      self.clock = clock
    }

    func edited(_ text: String, in id: Int) { saves.send(text, for: id) }
  }

  @Test func anActorOwner_getsEachKeysValuesIsolated_andIsHeldWeakly() async {
    let clock = VirtualClock()
    var documents: Documents? = Documents(clock: clock)
    for (id, text) in [(1, "a"), (2, "x"), (1, "ab"), (2, "xy")] { await documents!.edited(text, in: id) }
    clock.advance(to: .frame(3))
    await clock.settle()
    #expect(await documents!.saved == [1: ["ab"], 2: ["xy"]])
    await documents!.edited("abc", in: 1)
    weak let released = documents
    documents = nil
    #expect(released == nil)  // The pacer holds its owner weakly: no cycle.
    clock.advance(to: .frame(6))
    await clock.settle()  // The pending value has no one to reach: nothing runs, nothing hangs.
  }

  @MainActor @Test func aMainActorOwner_getsItsValuesOnTheMainActor() async {
    final class Inbox: Sendable {
      @MainActor var read: [Int: Bool] = [:]
    }
    let clock = VirtualClock()
    let inbox = Inbox()
    let marks = KeyedPacer(.debounce(for: .frames(2)), clock: clock, owner: inbox) {
      @MainActor (inbox: Inbox, thread: Int, isRead: Bool) in
      MainActor.assertIsolated()
      inbox.read[thread] = isRead
    }
    marks.send(true, for: 1)
    marks.send(false, for: 1)
    marks.send(true, for: 2)
    #expect(marks.pendingCount == 2 && marks.isPending(key: 1))
    clock.advance(to: .frame(2))
    await clock.settle()
    #expect(inbox.read == [1: false, 2: true])
    #expect(marks.liveKeyCount == 0)
  }

  @Test func flushAll_deliversEveryPendingValueNow_andCancelAllDropsThem() async {
    let clock = VirtualClock()
    let log = Log(clock: clock)
    let throttle = KeyedThrottler<Int, String>(.throttle(for: .frames(5), edges: .trailing), clock: clock) {
      key, value in log.record(key, value)
    }
    let debounce = KeyedDebouncer<Int, String>(.debounce(for: .frames(5)), clock: clock) { key, value in
      log.record(key + 100, value)
    }
    for key in 0..<3 {
      throttle.send("t\(key)", for: key)
      debounce.send("d\(key)", for: key)
    }
    debounce.flushAll()
    throttle.cancelAll()
    await clock.settle()
    #expect(log.byKey == [100: ["d0@0"], 101: ["d1@0"], 102: ["d2@0"]])
    clock.advance(to: .frame(5))
    await clock.settle()
    #expect(log.byKey.count == 3)  // The throttled values were cancelled.
    #expect(debounce.liveKeyCount == 0 && throttle.liveKeyCount == 0)
  }

  /// 200,000 distinct keys over time, at most 2,000 live at once, and no
  /// sweep: the state follows the live keys, never every key ever seen.
  /// (Sized for a debug build under ThreadSanitizer; issue 18's 10 million
  /// belong in a release-mode benchmark.)
  @Test func manyKeysOverTime_fewLiveAtOnce_leaveStateForTheLiveOnly() async {
    let clock = VirtualClock()
    let delivered = LockedState(0)
    let keyed = KeyedDebouncer<Int, Int>(.debounce(for: .frames(1)), clock: clock) { _, _ in
      delivered.withLock { $0 += 1 }
    }
    let (total, live) = (100_000, 2_000)
    var largest = (slots: 0, buckets: 0, timers: 0)
    for batch in 0..<(total / live) {
      for key in (batch * live)..<((batch + 1) * live) { keyed.send(key, for: key) }
      let capacity = keyed.capacity
      largest = (max(largest.slots, capacity.slots), max(largest.buckets, capacity.buckets), max(largest.timers, capacity.timers))
      clock.advance(by: .frames(1))  // The batch's bursts end: its keys fire, and go.
      await clock.settle()
      #expect(keyed.liveKeyCount == 0, "batch \(batch)")
    }
    #expect(delivered.withLock { $0 } == total)
    // Room for one batch of live keys (a table grows to twice what it holds), not for a million.
    #expect(largest.slots <= 4 * live && largest.buckets <= 8 * live && largest.timers <= 4 * live, "\(largest)")
    #expect(keyed.capacity.slots <= 64 && keyed.capacity.buckets <= 128 && keyed.capacity.timers == 0)
  }
}
