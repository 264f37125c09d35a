//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import PaceTesting
import Testing

/// Keyed pacers with `async` handlers: the on-busy answer applies per key,
/// keys never wait for one another, and only busy keys hold state. The
/// handler waits at a gate per (key, value), so the test decides when each
/// call ends.
@Suite(.timeLimit(.minutes(3))) struct KeyedAsyncHandlerTests {
  let clock = VirtualClock()
  let saves = AsyncHandlerPacerTests.Saves()

  func autosave(_ onBusy: OnBusy) -> KeyedPacer<String, DebounceStateMachine<String, DriverInstant>> {
    KeyedPacer(.debounce(for: .frames(3)), clock: clock, onBusy: onBusy) { [saves] (key: String, value: String) in
      await saves.save(key + value)
    }
  }

  /// Sends each (key, value) and lets the quiet period pass.
  func edit(_ pacer: KeyedPacer<String, DebounceStateMachine<String, DriverInstant>>, _ edits: (String, String)...) async {
    for (key, value) in edits { pacer.send(value, for: key) }
    clock.advance(by: .frames(3))
    await clock.settle()
  }

  @Test func queue_perKey_neverTwoOfAKeyAtOnce_andKeysRunSideBySide() async {
    let autosave = autosave(.queue)
    var arrivals = saves.arrived.makeAsyncIterator()
    await edit(autosave, ("A", "1"), ("B", "1"))
    // Both keys save at once: B does not wait for A.
    #expect(Set([await arrivals.next(), await arrivals.next()]) == ["A1", "B1"])
    await edit(autosave, ("A", "2"))
    await edit(autosave, ("A", "3"), ("B", "2"))  // A2 waited, and A3 replaced it; B2 waits for B1.
    #expect(Set(saves.begun) == ["A1", "B1"])
    saves.gate("A1").open()
    #expect(await arrivals.next() == "/A1")
    #expect(await arrivals.next() == "A3")  // A's last edit is saved, A2 never is.
    saves.gate("B1").open()
    #expect(await arrivals.next() == "/B1")
    #expect(await arrivals.next() == "B2")
    saves.gate("A3").open()
    saves.gate("B2").open()
    #expect(Set([await arrivals.next(), await arrivals.next()]) == ["/A3", "/B2"])
    #expect(saves.begun.filter { $0.hasPrefix("A") } == ["A1", "A3"])
    #expect(saves.mostAtOnce == 2)  // One per key, never more.
    #expect(saves.cancelled.isEmpty)
  }

  @Test func restart_perKey_cancelsOnlyThatKeysRunningCall() async {
    let autosave = autosave(.restart)
    var arrivals = saves.arrived.makeAsyncIterator()
    var cancellations = saves.cancellations.makeAsyncIterator()
    await edit(autosave, ("A", "1"), ("B", "1"))
    #expect(Set([await arrivals.next(), await arrivals.next()]) == ["A1", "B1"])
    await edit(autosave, ("A", "2"))
    #expect(await cancellations.next() == "A1")  // A's running save loses; B's goes on.
    saves.gate("A1").open()
    saves.gate("A2").open()
    saves.gate("B1").open()
    var seen: Set<String?> = []
    for _ in 0..<4 { seen.insert(await arrivals.next()) }
    #expect(seen == ["A2", "/A1", "/A2", "/B1"])
    #expect(saves.cancelled == ["A1"])
  }

  @Test func drop_perKey_dropsOnlyThatKeysValue() async {
    let autosave = autosave(.drop)
    var arrivals = saves.arrived.makeAsyncIterator()
    await edit(autosave, ("A", "1"))
    #expect(await arrivals.next() == "A1")
    await edit(autosave, ("A", "2"), ("B", "1"))  // A2 is dropped; B1 runs.
    #expect(await arrivals.next() == "B1")
    saves.gate("A1").open()
    saves.gate("B1").open()
    #expect(Set([await arrivals.next(), await arrivals.next()]) == ["/A1", "/B1"])
    #expect(Set(saves.begun) == ["A1", "B1"])
  }

  /// The per-key runners as a pure value: a key whose call ended holds
  /// nothing; a key that comes back counts its generations after every
  /// earlier one, so the late end of a call that lost (restart) is stale.
  @Test func runners_followTheBusyKeys_andNeverReuseAGeneration() {
    var runners = KeyedWorkRunners<Int, Int>(onBusy: .restart)
    var started: [(key: Int, generation: UInt64)] = []
    for key in 0..<1_000 {
      let effects = runners[runner: key].requested(KeyedValue(key: key, value: key))
      started.append((key, effects.start!.generation))
    }
    #expect(runners.count == 1_000)
    for (key, generation) in started { _ = runners[runner: key].finished(generation, with: .success(())) }
    #expect(runners.count == 0)  // Every call ended: no key holds a runner.

    // Key 7 restarts: its first call loses, the second ends, and the key goes while the loser still runs.
    let first = runners[runner: 7].requested(KeyedValue(key: 7, value: 1)).start!.generation
    let second = runners[runner: 7].requested(KeyedValue(key: 7, value: 2)).start!.generation
    _ = runners[runner: 7].finished(second, with: .success(()))
    #expect(runners.count == 0)
    // It comes back; then the loser's late end arrives: it must not end the new call.
    let third = runners[runner: 7].requested(KeyedValue(key: 7, value: 3)).start!.generation
    #expect(third > second && third != first)
    _ = runners[runner: 7].finished(first, with: .success(()))
    #expect(runners[runner: 7].isRunning && runners.count == 1)
  }

  /// Once shut down, keys leave nothing behind, however many values come.
  @Test func shutDownRunners_keepNoStateForNewKeys() {
    var runners = KeyedWorkRunners<Int, Int>(onBusy: .queue)
    _ = runners[runner: 0].requested(KeyedValue(key: 0, value: 0))
    _ = runners.shutDown()
    for key in 1...1_000 {
      let effects = runners[runner: key].requested(KeyedValue(key: key, value: key))
      #expect(effects.start == nil)
    }
    #expect(runners.count <= 1)  // Only key 0, whose cancelled call has not ended yet.
  }
}
