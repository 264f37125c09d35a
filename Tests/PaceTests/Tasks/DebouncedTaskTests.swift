//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import PaceTesting
import Testing

/// The awaitable debounce, on virtual time; `waitForCalls` says when a call
/// has reached the policy, so nothing here sleeps.
@Suite(.timeLimit(.minutes(3))) struct DebouncedTaskTests {
  let clock = VirtualClock()
  let started = Recorder<String>()

  func debounce(
    edges: DebounceEdges<Duration> = .default, _ body: @escaping @Sendable (String) async throws -> String = { $0 }
  ) -> DebouncedTask<String, String> {
    let started = started
    return DebouncedTask(for: .frames(3), edges: edges, clock: clock) { argument in
      started.record(argument)
      return try await body(argument)
    }
  }

  func call(_ task: DebouncedTask<String, String>, _ argument: String) -> Task<Outcome<String>, Never> {
    Task { await Outcome { try await task.run(argument) } }
  }

  @Test func aBurstRunsTheOperationOnce_withTheLatestArgument_afterTheQuietPeriod() async {
    let search = debounce { "results for \($0)" }
    let a = call(search, "a")
    await search.waitUntil(calls: 1)
    let b = call(search, "b")
    #expect(await a.value == .cancelled)  // At once: the clock has not moved.
    let c = call(search, "c")
    #expect(await b.value == .cancelled)
    #expect(started.all.isEmpty)
    clock.advance(by: .frames(2))
    await clock.settle()
    #expect(started.all.isEmpty)  // Still inside the quiet period.
    clock.advance(by: .frames(1))
    #expect(await c.value == .value("results for c"))
    #expect(started.all == ["c"])
    #expect(!search.isPending && !search.isRunning)
  }

  @Test func aNewBurst_cancelsTheOperationStillRunningForTheOldOne_evenWhenItIgnoresCancellation() async {
    let gate = Gate()
    let search = debounce { argument in
      if argument == "old" { await gate.pass() }  // Never stops for cancellation.
      return argument
    }
    let old = call(search, "old")
    await search.waitUntil(calls: 1)
    clock.advance(by: .frames(3))
    var arrivals = gate.arrived.makeAsyncIterator()
    await arrivals.next()  // "old" runs.
    let new = call(search, "new")
    await search.waitUntil(calls: 2)
    #expect(search.isPending && search.isRunning)
    clock.advance(by: .frames(3))
    // "new" started: "old" is resolved at once, although its operation is still at the gate.
    #expect(await old.value == .cancelled)
    #expect(await new.value == .value("new"))
    gate.open()
    await clock.settle()
    #expect(!search.isRunning)
  }

  @Test func aLateResultOfTheOldBurst_neverReachesTheNewCaller() async {
    let oldGate = Gate()
    let newGate = Gate()
    let search = debounce { argument in
      await (argument == "old" ? oldGate : newGate).pass()
      return argument
    }
    let old = call(search, "old")
    await search.waitUntil(calls: 1)
    clock.advance(by: .frames(3))
    var oldArrivals = oldGate.arrived.makeAsyncIterator()
    await oldArrivals.next()
    let new = call(search, "new")
    await search.waitUntil(calls: 2)
    clock.advance(by: .frames(3))
    var newArrivals = newGate.arrived.makeAsyncIterator()
    await newArrivals.next()
    oldGate.open()  // The stale operation returns first…
    #expect(await old.value == .cancelled)
    newGate.open()
    #expect(await new.value == .value("new"))  // …and the new caller gets its own result.
  }

  @Test func cancellingAWaitingCaller_meansItsOperationNeverRuns() async {
    let search = debounce()
    let a = call(search, "a")
    await search.waitUntil(calls: 1)
    a.cancel()
    #expect(await a.value == .cancelled)
    clock.advance(by: .frames(10))
    await clock.settle()
    #expect(started.all.isEmpty)
    #expect(!search.isPending)
  }

  @Test func cancellingARunningCaller_cancelsItsOperation() async {
    let (ends, ended) = AsyncStream<Bool>.makeStream()
    let clock = clock
    let search = debounce { argument in
      do {
        try await clock.sleep(until: .frame(3_600))
        ended.yield(false)
      } catch {
        ended.yield(true)  // Cancelled, as it should be.
        throw error
      }
      return argument
    }
    let a = call(search, "a")
    await search.waitUntil(calls: 1)
    clock.advance(by: .frames(3))
    await clock.waitForSleepers()
    a.cancel()
    #expect(await a.value == .cancelled)
    var iterator = ends.makeAsyncIterator()
    #expect(await iterator.next() == true)
    #expect(!search.isRunning)
  }

  @Test func withTheLeadingEdgeOnly_theFirstCallRuns_andTheRestOfTheBurstIsDroppedAtOnce() async {
    let gate = Gate()
    let search = debounce(edges: .leading) { argument in
      await gate.pass()
      return argument
    }
    let first = call(search, "first")
    var arrivals = gate.arrived.makeAsyncIterator()
    await arrivals.next()  // It runs at once, on the leading edge.
    let second = call(search, "second")
    #expect(await second.value == .cancelled)  // Dropped at once, and it cancels nothing.
    gate.open()
    #expect(await first.value == .value("first"))
    #expect(started.all == ["first"])
  }

  @Test func maxWait_runsTheLatestArgumentDuringALongBurst() async {
    let search = debounce(edges: .trailing(maxWait: .frames(5)))
    // A call every 2 frames, so the quiet period of 3 never comes.
    let a = call(search, "a")
    await search.waitUntil(calls: 1)
    clock.advance(to: .frame(2))
    let b = call(search, "b")
    #expect(await a.value == .cancelled)
    clock.advance(to: .frame(4))
    let c = call(search, "c")
    #expect(await b.value == .cancelled)
    clock.advance(to: .frame(5))  // The max wait: "c", the latest, runs.
    #expect(await c.value == .value("c"))
    clock.advance(to: .frame(6))
    let d = call(search, "d")
    await search.waitUntil(calls: 4)
    clock.advance(to: .frame(8))
    await clock.settle()
    #expect(started.all == ["c"])
    clock.advance(to: .frame(9))  // Quiet since 6.
    #expect(await d.value == .value("d"))
    #expect(started.all == ["c", "d"])
  }

  @Test func anError_reachesTheCallerWhoseArgumentRan() async {
    struct Boom: Error {}
    let search = debounce { _ in throw Boom() }
    let a = call(search, "a")
    await search.waitUntil(calls: 1)
    clock.advance(by: .frames(3))
    #expect(await a.value == .failed("Boom()"))
  }

  @Test func cancel_resolvesEveryCall() async {
    let search = debounce()
    let a = call(search, "a")
    await search.waitUntil(calls: 1)
    search.cancel()
    #expect(await a.value == .cancelled)
    clock.advance(by: .frames(10))
    await clock.settle()
    #expect(started.all.isEmpty)
  }

  @Test func aThousandOverlappingCalls_fromSeveralTasks_neverGetAnotherCallsResult_andEveryOperationEnds() async {
    let (ends, ended) = AsyncStream<Void>.makeStream()
    let begun = LockedState(0)
    // The real clock and a zero interval: calls overlap as they come.
    let search = DebouncedTask<Int, Int>(for: .zero) { argument in
      begun.withLock { $0 += 1 }
      defer { ended.yield() }
      await Task.yield()
      return argument * 2
    }
    let calls = 1_000
    let outcomes = await withTaskGroup(of: (Int, Outcome<Int>).self) { group in
      for worker in 0..<4 {
        group.addTask {
          var last = (0, Outcome<Int>.cancelled)
          for index in stride(from: worker, to: calls, by: 4) {
            last = (index, await Outcome { try await search.run(index) })
            if case .value(let value) = last.1 { #expect(value == index * 2) }  // Its own result, never another's.
          }
          return last
        }
      }
      return await group.reduce(into: [(Int, Outcome<Int>)]()) { $0.append($1) }
    }
    #expect(outcomes.count == 4)
    #expect(outcomes.allSatisfy { if case .failed = $0.1 { false } else { true } })
    // No operation is left behind: every one that began has ended.
    var count = 0
    let total = begun.withLock { $0 }
    for await _ in ends {
      count += 1
      if count == total { break }
    }
    #expect(count == total)
    #expect(!search.isPending && !search.isRunning)
  }

  /// An owner's state, for the owner-shaped initialisers.
  actor Drafts {
    var saved: [String] = []
    func persist(_ draft: String) -> Int {
      saved.append(draft)
      return saved.count
    }
  }

  @Test func anActorOwner_getsTheOperationIsolated_andIsHeldWeakly() async throws {
    var drafts: Drafts? = Drafts()
    let saves = DebouncedTask<String, Int>(for: .frames(3), clock: clock, owner: drafts!) { drafts, draft in
      drafts.persist(draft)  // Isolated to the owner: no `await`.
    }
    let first = Task { try await saves.run("a") }
    await saves.waitUntil(calls: 1)
    clock.advance(by: .frames(3))
    #expect(try await first.value == 1)
    #expect(await drafts?.saved == ["a"])
    weak let released = drafts
    drafts = nil
    #expect(released == nil)  // The task holds its owner weakly.
    let late = Task { await Outcome { try await saves.run("b") } }
    await saves.waitUntil(calls: 2)
    clock.advance(by: .frames(3))
    #expect(await late.value == .cancelled)  // The owner is gone: nothing to run it on.
  }

  @MainActor @Test func aMainActorOwner_getsTheOperationOnTheMainActor() async throws {
    final class Model: Sendable {
      @MainActor var shown: [String] = []
    }
    let model = Model()
    let search = DebouncedTask<String, Int>(for: .frames(3), clock: clock, owner: model) { @MainActor model, query in
      MainActor.assertIsolated()
      model.shown.append(query)
      return model.shown.count
    }
    let call = Task { try await search.run("swift") }
    await search.waitUntil(calls: 1)
    clock.advance(by: .frames(3))
    #expect(try await call.value == 1)
    #expect(model.shown == ["swift"])
  }
}
