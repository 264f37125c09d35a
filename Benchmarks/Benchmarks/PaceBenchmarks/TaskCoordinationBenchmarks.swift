//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Benchmark
import Pace
import Peers

/// Registers the task-coordination benchmarks: `LatestTask.run` and
/// `SingleFlight.run` per call, against the hand-rolled versions of the
/// article (a stored `Task` cancelled on each call; an actor with a
/// dictionary of tasks). The operations return at once (or yield once, to be
/// joined), so the figures are the machinery's cost per call.
///
/// Each comparison runs its two contenders in turns, round by round, as the
/// fire latency benchmark does (``TurnsProbe``): one after the other, each met
/// its own seconds of this shared machine, and the same code's ratio swung
/// from 0.67× to 1.28× over three runs. The allocations are counted by
/// benchmarks of their own ("… mallocs"), which measure nothing else.
func registerTaskCoordinationBenchmarks() {
  let calls = 100  // per round

  // One task calls in turn: each call starts, returns, and is the latest.
  // Each round runs on the contenders made for the benchmark it runs in.
  let latestRounds: @Sendable () -> [(Int) async throws -> Void] = {
    let pace = LatestTask<Int>()
    let storedTask = StoredTaskLatest<Int>()
    return [
      { round in
        var sum = 0
        for index in 0..<calls { sum &+= try await pace.run { round &+ index } }
        blackHole(sum)
      },
      { round in
        var sum = 0
        for index in 0..<calls { sum &+= try await storedTask.run { round &+ index } }
        blackHole(sum)
      },
    ]
  }
  TurnsProbe.register("latest run", contenders: ["Pace LatestTask", "stored Task"], callsPerRound: calls, latestRounds)

  // A miss each time: every call starts the work for a new key.
  let runRounds: @Sendable () -> [(Int) async throws -> Void] = {
    let flights = SingleFlight<Int, Int>()
    let dictionary = TaskDictionarySingleFlight<Int, Int>()
    return [
      { round in
        var sum = 0
        for index in 0..<calls { sum &+= try await flights.run(key: round &* calls &+ index) { index &+ 1 } }
        blackHole(sum)
      },
      { round in
        var sum = 0
        for index in 0..<calls { sum &+= try await dictionary.run(key: round &* calls &+ index) { index &+ 1 } }
        blackHole(sum)
      },
    ]
  }
  TurnsProbe.register(
    "single-flight run", contenders: ["Pace SingleFlight", "actor with task dictionary"], callsPerRound: calls,
    runRounds)

  // Eight concurrent callers per key and round; the figure is per caller. The
  // work yields once, as real work suspends: work that returns at once is
  // over before a second caller comes, so there would be nothing to join.
  let joiners = 8
  let joinRounds: @Sendable () -> [(Int) async throws -> Void] = {
    let flights = SingleFlight<Int, Int>()
    let dictionary = TaskDictionarySingleFlight<Int, Int>()
    return [
      // The work is written where it is passed, as a caller writes it: a
      // closure made elsewhere and passed on would be converted to
      // `@isolated(any)` at each call, which allocates.
      { key in
        try await joinOnce(joiners) {
          try await flights.run(key: key) {
            await Task.yield()
            return key
          }
        }
      },
      { key in
        try await joinOnce(joiners) {
          try await dictionary.run(key: key) {
            await Task.yield()
            return key
          }
        }
      },
    ]
  }
  TurnsProbe.register(
    "single-flight join", contenders: ["Pace SingleFlight", "actor with task dictionary"], callsPerRound: joiners,
    joinRounds)

  // What the runtime charges a caller that can be cancelled while it waits:
  // each Pace caller waits inside `withTaskCancellationHandler` (a cancelled
  // caller stops waiting at once); the actor's callers do not (a cancelled
  // one waits for the work). Beside it, the same async call bare.
  let handler = Benchmark.Configuration(
    metrics: [.wallClock], timeUnits: .nanoseconds, warmupIterations: 1, scalingFactor: .kilo,
    maxDuration: .seconds(2), maxIterations: 50)
  Benchmark("cancellation handler | withTaskCancellationHandler", configuration: handler) { benchmark in
    var sum = 0
    for index in benchmark.scaledIterations {
      sum &+= await withTaskCancellationHandler { await asyncIdentity(index) } onCancel: { blackHole(0) }
    }
    blackHole(sum)
  }
  Benchmark("cancellation handler | bare async call", configuration: handler) { benchmark in
    var sum = 0
    for index in benchmark.scaledIterations { sum &+= await asyncIdentity(index) }
    blackHole(sum)
  }

  // Allocations per call, counted apart: the runs in turns time rounds, and a
  // malloc count needs the benchmark's own iterations.
  let mallocs = Benchmark.Configuration(
    metrics: [.mallocCountTotal], warmupIterations: 1, scalingFactor: .kilo, maxDuration: .seconds(2),
    maxIterations: 10)
  let mallocRounds: [(String, String, @Sendable () -> [(Int) async throws -> Void], Int, Int)] = [
    ("latest run mallocs", "Pace LatestTask", latestRounds, 0, calls),
    ("latest run mallocs", "stored Task", latestRounds, 1, calls),
    ("single-flight run mallocs", "Pace SingleFlight", runRounds, 0, calls),
    ("single-flight run mallocs", "actor with task dictionary", runRounds, 1, calls),
    ("single-flight join mallocs", "Pace SingleFlight", joinRounds, 0, joiners),
    ("single-flight join mallocs", "actor with task dictionary", joinRounds, 1, joiners),
  ]
  for (group, contender, makeRounds, which, perRound) in mallocRounds {
    Benchmark("\(group) | \(contender)", configuration: mallocs) { benchmark in
      let round = makeRounds()[which]
      // Keys of their own, far from the runs in turns'.
      for index in 0..<(benchmark.scaledIterations.count / perRound) { try await round(1_000_000_000 &+ index) }
    }
  }
}

/// An async function the optimizer cannot see through.
@inline(never)
private func asyncIdentity(_ value: Int) async -> Int { value }

/// Runs `call` from `callers` concurrent tasks, and waits for all of them.
private func joinOnce(_ callers: Int, _ call: @escaping @Sendable () async throws -> Int) async throws {
  try await withThrowingTaskGroup(of: Int.self) { group in
    for _ in 0..<callers { group.addTask(operation: call) }
    for try await value in group { blackHole(value) }
  }
}
