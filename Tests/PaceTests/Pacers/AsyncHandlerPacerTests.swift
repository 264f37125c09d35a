//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import PaceTesting
import Testing

/// Pacers with `async` handlers: autosave as users want it. The handler
/// waits at a gate per value, so the test decides when each call ends.
@Suite(.timeLimit(.minutes(3))) struct AsyncHandlerPacerTests {
  /// What the handler saw: calls begun, ended or cancelled, and how many ran at once.
  final class Saves: Sendable {
    private let state = LockedState<(begun: [String], ended: [String], cancelled: [String], running: Int, most: Int)>(
      ([], [], [], 0, 0))
    let gates = Gates<String>()
    private let arrivals: AsyncStream<String>.Continuation
    let arrived: AsyncStream<String>

    /// The drafts whose save was cancelled, as it happens.
    let cancellations: AsyncStream<String>
    private let cancelling: AsyncStream<String>.Continuation

    init() {
      (arrived, arrivals) = AsyncStream<String>.makeStream()
      (cancellations, cancelling) = AsyncStream<String>.makeStream()
    }

    var begun: [String] { state.withLock { $0.begun } }
    var ended: [String] { state.withLock { $0.ended } }
    var cancelled: [String] { state.withLock { $0.cancelled } }
    var mostAtOnce: Int { state.withLock { $0.most } }

    func gate(_ draft: String) -> Gate {
      gates[draft]
    }

    func note(_ event: String) {
      arrivals.yield(event)
    }

    /// The handler: waits at the draft's gate, noting whether it was cancelled.
    @Sendable func save(_ draft: String) async {
      state.withLock { state in
        state.begun.append(draft)
        state.running += 1
        state.most = max(state.most, state.running)
      }
      arrivals.yield(draft)
      await withTaskCancellationHandler {
        await gate(draft).pass()
      } onCancel: {
        cancelling.yield(draft)
      }
      state.withLock { state in
        state.running -= 1
        state.ended.append(draft)
        if Task.isCancelled { state.cancelled.append(draft) }
      }
      arrivals.yield("/" + draft)
    }
  }

  let clock = VirtualClock()
  let saves = Saves()

  func autosave(_ onBusy: OnBusy) -> Debouncer<String> {
    Debouncer<String>(.debounce(for: .frames(3)), clock: clock, onBusy: onBusy, handler: saves.save)
  }

  /// Sends `draft` and lets its quiet period pass.
  func edit(_ pacer: Debouncer<String>, _ draft: String) async {
    pacer.send(draft)
    clock.advance(by: .frames(3))
    await clock.settle()
  }

  @Test func queue_neverRunsTwoAtOnce_andAlwaysSavesAfterTheLastEdit() async {
    let autosave = autosave(.queue)
    var arrivals = saves.arrived.makeAsyncIterator()
    await edit(autosave, "a")
    #expect(await arrivals.next() == "a")  // "a" is being saved…
    await edit(autosave, "b")
    await edit(autosave, "c")  // …"b" waited, and "c" replaced it.
    #expect(saves.begun == ["a"])
    saves.gate("a").open()
    #expect(await arrivals.next() == "/a")
    #expect(await arrivals.next() == "c")  // Then the last edit is saved, and "b" never is.
    saves.gate("c").open()
    #expect(await arrivals.next() == "/c")
    #expect(saves.begun == ["a", "c"])
    #expect(saves.mostAtOnce == 1)
    #expect(saves.cancelled.isEmpty)
  }

  @Test func restart_cancelsTheRunningSave_andStartsTheNewOneAtOnce() async {
    let autosave = autosave(.restart)
    var arrivals = saves.arrived.makeAsyncIterator()
    await edit(autosave, "a")
    #expect(await arrivals.next() == "a")
    await edit(autosave, "b")
    #expect(await arrivals.next() == "b")  // Started although "a" has not returned…
    var cancellations = saves.cancellations.makeAsyncIterator()
    #expect(await cancellations.next() == "a")  // …and "a" is cancelled.
    saves.gate("a").open()
    #expect(await arrivals.next() == "/a")
    #expect(saves.cancelled == ["a"])  // "a" was cancelled.
    saves.gate("b").open()
    #expect(await arrivals.next() == "/b")
    #expect(saves.cancelled == ["a"])
  }

  @Test func drop_ignoresWhatComesWhileASaveRuns() async {
    let autosave = autosave(.drop)
    var arrivals = saves.arrived.makeAsyncIterator()
    await edit(autosave, "a")
    #expect(await arrivals.next() == "a")
    await edit(autosave, "b")
    saves.gate("a").open()
    #expect(await arrivals.next() == "/a")
    await edit(autosave, "c")  // Idle again: it runs.
    #expect(await arrivals.next() == "c")
    saves.gate("c").open()
    #expect(await arrivals.next() == "/c")
    #expect(saves.begun == ["a", "c"])
  }

  @Test func aThrottler_withAnAsyncHandler_keepsItsRate_andQueuesTheLatest() async {
    let sync = Throttler<String>(.throttle(for: .frames(3)), clock: clock, onBusy: .queue, handler: saves.save)
    var arrivals = saves.arrived.makeAsyncIterator()
    sync.send("a")  // Leading edge: at once.
    #expect(await arrivals.next() == "a")
    sync.send("b")
    sync.send("c")
    clock.advance(by: .frames(3))  // The window ends with "c", which waits for "a".
    await clock.settle()
    #expect(saves.begun == ["a"])
    saves.gate("a").open()
    #expect(await arrivals.next() == "/a")
    #expect(await arrivals.next() == "c")
    saves.gate("c").open()
    #expect(await arrivals.next() == "/c")
    #expect(saves.begun == ["a", "c"])
  }

  @Test func releasingThePacer_cancelsTheRunningSave_andTheWaitingOneNeverRuns() async {
    var autosave: Debouncer<String>? = autosave(.queue)
    var arrivals = saves.arrived.makeAsyncIterator()
    await edit(autosave!, "a")
    #expect(await arrivals.next() == "a")
    await edit(autosave!, "b")  // Waits for "a".
    autosave = nil
    var cancellations = saves.cancellations.makeAsyncIterator()
    #expect(await cancellations.next() == "a")
    saves.gate("a").open()
    #expect(await arrivals.next() == "/a")
    #expect(saves.cancelled == ["a"])
    #expect(saves.begun == ["a"])
    saves.gate("b").open()  // In case it ran anyway.
  }

  actor Store {
    var saved: [String] = []
    let saves: Saves
    private let clock: VirtualClock
    private var pacer: Debouncer<String>?

    init(clock: VirtualClock, saves: Saves) {
      self.clock = clock
      self.saves = saves
    }

    func start() {
      pacer = Debouncer<String>(.debounce(for: .frames(3)), clock: clock, onBusy: .queue, owner: self) { store, draft in
        await store.saves.save(draft)
        store.saved.append(draft)  // On the actor, after the await.
        store.saves.note("saved \(draft)")
      }
    }

    func edit(_ draft: String) { pacer?.send(draft) }
  }

  @Test func anActorOwner_getsItselfBack_onItsIsolation() async {
    let store = Store(clock: clock, saves: saves)
    await store.start()
    var arrivals = saves.arrived.makeAsyncIterator()
    await store.edit("a")
    clock.advance(by: .frames(3))
    #expect(await arrivals.next() == "a")
    saves.gate("a").open()
    #expect(await arrivals.next() == "/a")
    #expect(await arrivals.next() == "saved a")
    #expect(await store.saved == ["a"])
  }

  @Test func anActorOwner_isHeldWeakly_andOnceItIsGoneNothingRuns() async {
    var store: Store? = Store(clock: clock, saves: saves)
    await store!.start()
    await store!.edit("a")
    weak let weakStore = store
    store = nil
    #expect(weakStore == nil)  // The pacer, holding "a", does not keep its owner alive.
    clock.advance(by: .frames(3))
    await clock.settle()
    #expect(saves.begun.isEmpty)
  }

  @Test func aThousandSends_fromSeveralTasks_neverOverlap_andTheLastValueIsHandledLast() async {
    let order = LockedState(0)
    let handled = LockedState<(values: [Int], running: Int, most: Int)>(([], 0, 0))
    let (done, finished) = AsyncStream<Void>.makeStream()
    let sends = 1_000
    let pacer = Debouncer<Int>(.debounce(for: .zero), onBusy: .queue) { value in
      handled.withLock { state in
        state.running += 1
        state.most = max(state.most, state.running)
      }
      await Task.yield()
      let isLast = handled.withLock { state in
        state.running -= 1
        state.values.append(value)
        return value == sends
      }
      if isLast { finished.yield() }
    }
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<4 {
        group.addTask {
          for _ in 0..<(sends / 4) {
            // Numbered in the order they reach the pacer.
            order.withLock { count in
              count += 1
              pacer.send(count)
            }
            await Task.yield()
          }
        }
      }
    }
    var iterator = done.makeAsyncIterator()
    await iterator.next()
    let (values, most) = handled.withLock { ($0.values, $0.most) }
    #expect(most == 1)
    #expect(values.last == sends)
    #expect(values == values.sorted())  // Never an older value after a newer one.
  }
}
