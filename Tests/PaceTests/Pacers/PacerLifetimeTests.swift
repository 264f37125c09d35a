//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import PaceTesting
import Testing

/// A pacer keeps nothing alive: not itself through its timer, not its owner
/// through a handler that captures the owner weakly.
@Suite struct PacerLifetimeTests {
  @Test func releasedWithAPendingValue_neverCallsItsHandler_andIsFreed() async throws {
    let clock = VirtualClock()
    let recorder = Recorder<Int>()
    weak var weakDebouncer: Debouncer<Int>?
    weak var weakThrottler: Throttler<Int>?
    do {
      let debouncer = Debouncer<Int>(for: .frames(3), clock: clock, handler: recorder.record)
      let throttler = Throttler<Int>(for: .frames(3), edges: .trailing, clock: clock, handler: recorder.record)
      debouncer.send(1)
      throttler.send(2)
      #expect(clock.pendingTimerCount == 2)
      weakDebouncer = debouncer
      weakThrottler = throttler
    }
    #expect(weakDebouncer == nil)
    #expect(weakThrottler == nil)
    #expect(clock.pendingTimerCount == 0)
    clock.advance(to: .frame(100))
    #expect(recorder.all.isEmpty)
  }

  @Test func releasedOnTheContinuousClock_isFreedAtOnce() throws {
    weak var weakDebouncer: Debouncer<Int>?
    do {
      let debouncer = Debouncer<Int>(for: .seconds(3_600)) { _ in }
      debouncer.send(1)  // A timer task now sleeps for an hour; it must not hold the pacer.
      weakDebouncer = debouncer
    }
    #expect(weakDebouncer == nil)
  }

  @MainActor @Test func mainActorModel_isFreed_andItsHandlerIsNotCalledAfterwards() async {
    let clock = VirtualClock()
    let calls = Recorder<String>()
    weak var weakModel: TypingModel?
    do {
      let model = TypingModel(clock: clock, calls: calls)
      model.textChanged("swift")
      weakModel = model
    }
    #expect(weakModel == nil)
    clock.advance(by: .seconds(1))
    await clock.settle()
    #expect(calls.all.isEmpty)
    #expect(clock.pendingTimerCount == 0)
  }

  @MainActor @Test func mainActorModel_getsItselfBack_onTheMainActor() async {
    let clock = VirtualClock()
    let calls = Recorder<String>()
    let model = TypingModel(clock: clock, calls: calls)
    model.textChanged("swi")
    model.textChanged("swift")
    clock.advance(by: .seconds(1))
    await clock.settle()
    #expect(model.query == "swift")
    #expect(calls.all == ["swift"])
  }

  @Test func actor_isFreed_andItsHandlerIsNotCalledAfterwards() async {
    let clock = VirtualClock()
    let saved = Recorder<String>()
    weak var weakStore: DraftStore?
    do {
      let store = DraftStore(clock: clock, saved: saved)
      await store.edited("draft")
      weakStore = store
    }
    #expect(weakStore == nil)
    clock.advance(by: .seconds(10))
    await clock.settle()
    #expect(saved.all.isEmpty)
    #expect(clock.pendingTimerCount == 0)
  }

  @Test func actor_getsItselfBack_isolated() async {
    let clock = VirtualClock()
    let saved = Recorder<String>()
    let store = DraftStore(clock: clock, saved: saved)
    await store.edited("d")
    await store.edited("dr")
    clock.advance(by: .seconds(10))
    await clock.settle()
    #expect(saved.all == ["dr"])
    #expect(await store.saveCount == 1)
  }

  @Test func sendableClass_capturingItsCollaborators_isFreed_andItsHandlerIsNotCalledAfterwards() async {
    let clock = VirtualClock()
    let saved = Recorder<String>()
    weak var weakSaver: Autosaver?
    do {
      let saver = Autosaver(clock: clock, storage: saved)
      saver.edited("draft")
      weakSaver = saver
    }
    #expect(weakSaver == nil)
    clock.advance(by: .seconds(10))
    await clock.settle()
    #expect(saved.all.isEmpty)
  }

  /// A flush emits: the value is on its way, and letting the pacer go at
  /// once does not take it back (only what the policy still holds is dropped).
  @Test func releasedRightAfterAFlush_orAFinish_stillDeliversWhatWasEmitted() async {
    let clock = VirtualClock()
    let recorder = Recorder<Int>()
    weak var weakFlushed: Debouncer<Int>?
    weak var weakFinished: Debouncer<Int>?
    weak var weakThrottler: Throttler<Int>?
    do {
      let flushed = Debouncer<Int>(for: .frames(3), clock: clock, handler: recorder.record)
      let finished = Debouncer<Int>(for: .frames(3), clock: clock, handler: recorder.record)
      let throttler = Throttler<Int>(for: .frames(3), edges: .trailing, clock: clock, handler: recorder.record)
      flushed.send(1)
      flushed.flush()
      finished.send(2)
      finished.finish()  // A debounce's finish emits at once.
      throttler.send(3)
      throttler.flush()
      throttler.send(4)  // Held by the policy until its window ends: dropped with the pacer.
      weakFlushed = flushed
      weakFinished = finished
      weakThrottler = throttler
    }
    await clock.settle()
    clock.advance(to: .frame(100))
    await clock.settle()
    #expect(recorder.all.sorted() == [1, 2, 3])
    #expect(weakFlushed == nil)
    #expect(weakFinished == nil)
    #expect(weakThrottler == nil)
    #expect(clock.pendingTimerCount == 0)
  }

  @MainActor @Test func mainActorHandler_releasedRightAfterAFlush_stillGetsTheValue() async {
    let clock = VirtualClock()
    let recorder = Recorder<String>()
    do {
      let debouncer = Debouncer<String>(for: .seconds(1), clock: clock) { @MainActor text in
        MainActor.preconditionIsolated()
        recorder.record(text)
      }
      debouncer.send("draft")
      debouncer.flush()  // The delivery waits for the main actor, which this test holds…
    }  // …while the pacer goes.
    await clock.settle()
    #expect(recorder.all == ["draft"])
  }

  @Test func keyedPacer_releasedRightAfterFlushAll_deliversEveryKey_andDropsNothingEmitted() async {
    let clock = VirtualClock()
    let recorder = Recorder<String>()
    do {
      let keyed = KeyedDebouncer<Int, String>(.debounce(for: .seconds(1)), clock: clock) { key, value in
        recorder.record("\(key):\(value)")
      }
      for key in 0..<100 { keyed.send("v", for: key) }
      keyed.flushAll()
      keyed.send("late", for: 1_000)  // Still held by its policy when the pacer goes: dropped.
    }
    await clock.settle()
    clock.advance(by: .seconds(10))
    await clock.settle()
    #expect(recorder.all.count == 100)
    #expect(Set(recorder.all) == Set((0..<100).map { "\($0):v" }))
  }

  @Test func ownerLetGoWhileADeliveryIsOnItsWay_getsTheValue_thenIsFreed() async {
    let clock = VirtualClock()
    let saved = Recorder<String>()
    var store: DraftStore? = DraftStore(clock: clock, saved: saved)
    weak let weakStore = store
    await store?.edited("draft")
    await store?.flushNow()  // Emitted: its delivery has started, and holds the actor while it runs…
    store = nil  // …so letting go now does not take the value back (delivery is transport).
    await clock.settle()
    #expect(saved.all == ["draft"])
    #expect(weakStore == nil)  // Then nothing holds the actor.
  }
}

/// The README's main-actor model: it owns its debouncer, which hands the
/// model back to the handler, weakly held, on the main actor.
@MainActor final class TypingModel {
  var query = ""
  private let calls: Recorder<String>
  private let clock: VirtualClock
  private lazy var search = Debouncer<String>(.debounce(for: .seconds(1)), clock: clock, owner: self) { @MainActor model, text in
    MainActor.preconditionIsolated()  // The handler runs where the model lives.
    model.query = text
    model.calls.record(text)
  }

  init(clock: VirtualClock, calls: Recorder<String>) {
    self.clock = clock
    self.calls = calls
  }

  func textChanged(_ text: String) { search.send(text) }
}

/// The README's actor: it owns its debouncer, whose handler runs on the
/// actor with the actor as an `isolated` parameter, weakly held.
actor DraftStore {
  private let saved: Recorder<String>
  private let clock: VirtualClock
  private(set) var saveCount = 0
  private lazy var saves = Debouncer<String>(.debounce(for: .seconds(1)), clock: clock, owner: self) { store, draft in
    store.persist(draft)  // Isolated to the store: no `await`.
  }

  init(clock: VirtualClock, saved: Recorder<String>) {
    self.clock = clock
    self.saved = saved
  }

  func edited(_ draft: String) { saves.send(draft) }
  func flushNow() { saves.flush() }

  private func persist(_ draft: String) {
    saveCount += 1
    saved.record(draft)
  }
}

/// The README's class: `Sendable`, its state behind locks; the handler
/// captures the collaborator it needs, not the class, so there is no cycle.
final class Autosaver: Sendable {
  private let saves: Debouncer<String>

  init(clock: VirtualClock, storage: Recorder<String>) {
    saves = Debouncer<String>(for: .seconds(1), clock: clock) { [storage] draft in storage.record(draft) }
  }

  func edited(_ draft: String) { saves.send(draft) }
}
