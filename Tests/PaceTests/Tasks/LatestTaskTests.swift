//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import PaceTesting
import Testing

@Suite(.timeLimit(.minutes(3))) struct LatestTaskTests {
  @Test func theLatestCallerGetsItsResult() async {
    let latest = LatestTask<Int>()
    #expect(await Outcome { try await latest.run { 1 } } == .value(1))
    #expect(await Outcome { try await latest.run { 2 } } == .value(2))
    #expect(!latest.isRunning)
  }

  @MainActor @Test func callsMadeOnOneActor_areLatestInTheOrderTheyWereMade() async {
    // A call registers on its caller's actor before it first suspends. Were
    // it to hop off the actor first, the two calls below would register in
    // either order: some rounds of a thousand would get them the wrong way round.
    for _ in 0..<1_000 {
      let latest = LatestTask<Int>()
      let gate = Gate()
      let first = Task {
        await Outcome {
          try await latest.run {
            await gate.pass(); return 1
          }
        }
      }
      let second = Task { await Outcome { try await latest.run { 2 } } }
      let secondOutcome = await second.value
      gate.open()  // On the wrong order, the first caller is the latest: let it end.
      #expect(await first.value == .cancelled)
      #expect(secondOutcome == .value(2))
    }
  }

  @Test func aSupersededCaller_getsCancellationErrorAtOnce_evenWhenItsOperationIgnoresCancellation() async {
    let latest = LatestTask<String>()
    let gate = Gate()
    let first = Task {
      await Outcome {
        try await latest.run {
          await gate.pass(); return "stale"
        }
      }
    }
    var arrivals = gate.arrived.makeAsyncIterator()
    await arrivals.next()  // The first operation runs, and will not stop for cancellation.
    let second = await Outcome { try await latest.run { "fresh" } }
    // The first caller is resolved although its operation is still at the gate.
    #expect(await first.value == .cancelled)
    #expect(second == .value("fresh"))
    gate.open()  // Its late result goes nowhere.
  }

  @Test func aLateResultOfASupersededOperation_neverReachesTheLatestCaller() async {
    let latest = LatestTask<String>()
    let firstGate = Gate()
    let secondGate = Gate()
    let first = Task {
      await Outcome {
        try await latest.run {
          await firstGate.pass(); return "stale"
        }
      }
    }
    var firstArrivals = firstGate.arrived.makeAsyncIterator()
    await firstArrivals.next()
    let second = Task {
      await Outcome {
        try await latest.run {
          await secondGate.pass(); return "fresh"
        }
      }
    }
    var secondArrivals = secondGate.arrived.makeAsyncIterator()
    await secondArrivals.next()
    firstGate.open()  // The stale operation returns first…
    #expect(await first.value == .cancelled)
    secondGate.open()
    #expect(await second.value == .value("fresh"))  // …and the latest caller still gets its own result.
  }

  @Test func cancellingTheCaller_cancelsItsOperation() async {
    let latest = LatestTask<Int>()
    let clock = VirtualClock()
    let (operationEnds, operationEnded) = AsyncStream<Bool>.makeStream()
    let caller = Task {
      await Outcome {
        try await latest.run {
          do {
            try await clock.sleep(until: .frame(3_600))
            operationEnded.yield(false)
          } catch {
            operationEnded.yield(true)  // Cancelled, as it should be.
            throw error
          }
          return 1
        }
      }
    }
    await clock.waitForSleepers()
    caller.cancel()
    #expect(await caller.value == .cancelled)
    var ends = operationEnds.makeAsyncIterator()
    #expect(await ends.next() == true)
    #expect(!latest.isRunning)
  }

  @Test func aCallerCancelledBeforeItRuns_doesNotSupersedeTheCallBefore() async {
    let latest = LatestTask<String>()
    let gate = Gate()
    let first = Task {
      await Outcome {
        try await latest.run {
          await gate.pass(); return "first"
        }
      }
    }
    var arrivals = gate.arrived.makeAsyncIterator()
    await arrivals.next()
    let cancelledEarly = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return await Outcome { try await latest.run { "never" } }
    }
    #expect(await cancelledEarly.value == .cancelled)
    gate.open()
    #expect(await first.value == .value("first"))
  }

  @Test func equalOperations_areStillTwoCalls_latestWinsByGeneration() async {
    let latest = LatestTask<Int>()
    let gate = Gate()
    @Sendable func operation() async throws -> Int {
      await gate.pass()
      return 7
    }
    let first = Task { await Outcome { try await latest.run(operation) } }
    var arrivals = gate.arrived.makeAsyncIterator()
    await arrivals.next()
    let second = Task { await Outcome { try await latest.run(operation) } }
    #expect(await first.value == .cancelled)
    await arrivals.next()
    gate.open()
    #expect(await second.value == .value(7))
  }

  @Test func aThousandOverlappingCalls_fromSeveralTasks_allReturn_andEveryOperationEnds() async {
    let latest = LatestTask<Int>()
    let (ends, ended) = AsyncStream<Void>.makeStream()
    let calls = 1_000
    let outcomes = await withTaskGroup(of: (Int, Outcome<Int>).self) { group in
      for index in 0..<calls {
        group.addTask {
          let outcome = await Outcome {
            try await latest.run {
              defer { ended.yield() }
              await Task.yield()
              return index
            }
          }
          return (index, outcome)
        }
      }
      return await group.reduce(into: [(Int, Outcome<Int>)]()) { $0.append($1) }
    }
    #expect(outcomes.count == calls)
    #expect(outcomes.allSatisfy { if case .failed = $0.1 { false } else { true } })
    // A caller gets its own operation's result or CancellationError, never another's.
    #expect(outcomes.allSatisfy { index, outcome in outcome == .cancelled || outcome == .value(index) })
    #expect(outcomes.contains { if case .value = $0.1 { true } else { false } })
    // No operation is left behind: every one of them ended.
    var count = 0
    for await _ in ends {
      count += 1
      if count == calls { break }
    }
    #expect(count == calls)
    #expect(!latest.isRunning)
  }
}
