//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Benchmark

/// Times contenders in turns: round after round, each contender runs one
/// round, the first of each round being the next contender in line, and each
/// round's time per call is a measurement of the contender's own metric
/// ("<contender> | per call (ns)", which `compare` reads).
///
/// Run one after the other, each contender would meet its own seconds of
/// this shared machine: the same code's ratio swung from 0.67× to 1.28× over
/// three runs that way. In turns, a noisy moment falls on all of them alike.
enum TurnsProbe {
  /// Rounds per contender, recorded, after `warmUpRounds` unrecorded ones
  /// that warm up both.
  static let rounds = 4_000
  static let warmUpRounds = 50

  static func metric(of contender: String) -> BenchmarkMetric {
    .custom("\(contender) | per call (ns)", polarity: .prefersSmaller, useScalingFactor: false)
  }

  /// Registers the benchmark `group`: `makeRounds` makes the contenders,
  /// and its `[i]` runs contender `i`'s round number `n` (a distinct number
  /// each time) of `callsPerRound` calls.
  static func register(
    _ group: String, contenders: [String], callsPerRound: Int,
    _ makeRounds: @escaping @Sendable () -> [(Int) async throws -> Void]
  ) {
    let metrics = contenders.map(metric(of:))
    let configuration = Benchmark.Configuration(
      metrics: metrics, timeUnits: .nanoseconds,
      units: Dictionary(uniqueKeysWithValues: metrics.map { ($0, .count) }), warmupIterations: 0,
      scalingFactor: .one, maxDuration: .seconds(120), maxIterations: 1)
    Benchmark(group, configuration: configuration) { benchmark in
      let round = makeRounds()
      precondition(contenders.count == round.count, "one round per contender")
      for number in 0..<(warmUpRounds + rounds) {
        for turn in 0..<contenders.count {
          let contender = (number + turn) % contenders.count
          let start = ContinuousClock.now
          try await round[contender](number &* contenders.count &+ contender)
          let perCall = start.duration(to: .now) / callsPerRound
          if number >= warmUpRounds { benchmark.measurement(metrics[contender], Int(perCall / .nanoseconds(1))) }
        }
      }
    }
  }
}
