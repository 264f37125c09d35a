//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import PaceTesting
import Synchronization
import Testing

struct Boom: Error, Equatable {}

/// A count shared by escaping closures (an `Atomic` cannot be captured by them).
final class Counter: Sendable {
  private let count = Atomic<Int>(0)
  func add() { count.add(1, ordering: .relaxed) }
  var value: Int { count.load(ordering: .relaxed) }
}

/// A flag shared by escaping closures.
final class Flag: Sendable {
  private let flag = Atomic<Bool>(false)
  func set(_ value: Bool) { flag.store(value, ordering: .relaxed) }
  var value: Bool { flag.load(ordering: .relaxed) }
}

@Suite(.timeLimit(.minutes(3))) struct SingleFlightTests {
  @Test func concurrentCallersWithOneKey_shareOneExecution_andItsResult() async {
    let flight = SingleFlight<String, Int>()
    let gate = Gate()
    let executions = Counter()
    @Sendable func load() async throws -> Int {
      executions.add()
      await gate.pass()
      return 42
    }
    let first = Task { await Outcome { try await flight.run(key: "page 1", load) } }
    var arrivals = gate.arrived.makeAsyncIterator()
    await arrivals.next()  // The work runs; the next callers join it.
    let others = (0..<3).map { _ in Task { await Outcome { try await flight.run(key: "page 1", load) } } }
    await flight.waitUntil(callers: 4, key: "page 1")
    gate.open()
    #expect(await first.value == .value(42))
    for other in others { #expect(await other.value == .value(42)) }
    #expect(executions.value == 1)
    #expect(flight.runningCount == 0)
  }

  @Test func differentKeys_runSeparately() async {
    let flight = SingleFlight<Int, Int>()
    let results = await withTaskGroup(of: Outcome<Int>.self) { group in
      for key in 0..<3 { group.addTask { await Outcome { try await flight.run(key: key) { key * 10 } } } }
      return await group.reduce(into: [Outcome<Int>]()) { $0.append($1) }
    }
    #expect(Set(results.map { "\($0)" }) == ["value(0)", "value(10)", "value(20)"])
  }

  @Test func anError_isSharedByEveryCaller() async {
    let flight = SingleFlight<String, Int>()
    let gate = Gate()
    let first = Task {
      await Outcome {
        try await flight.run(key: "k") {
          await gate.pass(); throw Boom()
        }
      }
    }
    var arrivals = gate.arrived.makeAsyncIterator()
    await arrivals.next()
    let second = Task { await Outcome { try await flight.run(key: "k") { 0 } } }
    await flight.waitUntil(callers: 2, key: "k")
    gate.open()
    #expect(await first.value == .failed("Boom()"))
    #expect(await second.value == .failed("Boom()"))
  }

  @Test func cancellingOneCaller_leavesTheWorkRunningForTheOthers() async {
    let flight = SingleFlight<String, Int>()
    let gate = Gate()
    let cancelled = Flag()
    let first = Task {
      await Outcome {
        try await flight.run(key: "k") {
          await gate.pass()
          cancelled.set(Task.isCancelled)
          return 1
        }
      }
    }
    var arrivals = gate.arrived.makeAsyncIterator()
    await arrivals.next()
    let second = Task { await Outcome { try await flight.run(key: "k") { 2 } } }
    await flight.waitUntil(callers: 2, key: "k")
    first.cancel()
    #expect(await first.value == .cancelled)  // At once, while the work is still at the gate.
    gate.open()
    #expect(await second.value == .value(1))
    #expect(cancelled.value == false)  // The work was not cancelled for the other caller.
  }

  @Test func theWorkIsCancelled_whenEveryCallerHasGone() async {
    let flight = SingleFlight<String, Int>()
    let clock = VirtualClock()
    let (ends, ended) = AsyncStream<Bool>.makeStream()
    @Sendable func load() async throws -> Int {
      do {
        try await clock.sleep(until: .frame(3_600))
        ended.yield(false)
      } catch {
        ended.yield(true)
        throw error
      }
      return 1
    }
    let callers = (0..<2).map { _ in Task { await Outcome { try await flight.run(key: "k", load) } } }
    await clock.waitForSleepers()
    await flight.waitUntil(callers: 2, key: "k")
    for caller in callers { caller.cancel() }
    for caller in callers { #expect(await caller.value == .cancelled) }
    var iterator = ends.makeAsyncIterator()
    #expect(await iterator.next() == true)
    #expect(flight.runningCount == 0)
  }

  @Test func aLateFinisher_neverRemovesANewerEntry() async {
    let flight = SingleFlight<String, String>()
    let oldGate = Gate()
    let newGate = Gate()
    let executions = Counter()
    // The old work ignores its cancellation: it will finish late.
    let old = Task {
      await Outcome {
        try await flight.run(key: "k") {
          await oldGate.pass(); return "old"
        }
      }
    }
    var oldArrivals = oldGate.arrived.makeAsyncIterator()
    await oldArrivals.next()
    old.cancel()
    #expect(await old.value == .cancelled)
    #expect(flight.runningCount == 0)  // Every caller left: the entry went with them.
    @Sendable func fresh() async throws -> String {
      executions.add()
      await newGate.pass()
      return "new"
    }
    let new = Task { await Outcome { try await flight.run(key: "k", fresh) } }
    var newArrivals = newGate.arrived.makeAsyncIterator()
    await newArrivals.next()
    oldGate.open()  // The old work finishes now…
    let joiner = Task { await Outcome { try await flight.run(key: "k", fresh) } }
    await flight.waitUntil(callers: 2, key: "k")  // …and the newer entry is still there to join.
    newGate.open()
    #expect(await new.value == .value("new"))
    #expect(await joiner.value == .value("new"))
    #expect(executions.value == 1)
  }

  @MainActor @Test func twoTapsInOneMainActorTurn_startOneExecution() async {
    let flight = SingleFlight<String, Int>()
    let executions = Counter()
    let gate = Gate()
    let taps = (0..<2).map { _ in
      Task {
        await Outcome {
          try await flight.run(key: "load more") {
            executions.add()
            await gate.pass()
            return 1
          }
        }
      }
    }
    await flight.waitUntil(callers: 2, key: "load more")
    gate.open()
    for tap in taps { #expect(await tap.value == .value(1)) }
    #expect(executions.value == 1)
  }

  @Test func aThousandOverlappingCalls_onFewKeys_allReturn_andEveryExecutionEnds() async {
    let flight = SingleFlight<Int, Int>()
    let started = Counter()
    let ended = Counter()
    let outcomes = await withTaskGroup(of: Outcome<Int>.self) { group in
      for index in 0..<1_000 {
        group.addTask {
          await Outcome {
            try await flight.run(key: index % 7) {
              started.add()
              defer { ended.add() }
              await Task.yield()
              return index % 7
            }
          }
        }
      }
      return await group.reduce(into: [Outcome<Int>]()) { $0.append($1) }
    }
    #expect(outcomes.count == 1_000)
    #expect(outcomes.allSatisfy { if case .value = $0 { true } else { false } })
    // Every caller got its result from an execution that has ended: none is left behind.
    #expect(started.value == ended.value)
    #expect(started.value <= 1_000)
    #expect(flight.runningCount == 0)
  }
}
