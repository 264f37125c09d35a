//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import Synchronization

/// How many lines went into and came out of each stage, for `--stats`.
final class StageCounts: Sendable {
  let names: [String]
  private let counts: Mutex<[(in: Int, out: Int)]>

  init(names: [String]) {
    self.names = names
    counts = Mutex(Array(repeating: (0, 0), count: names.count))
  }

  func add(stage: Int, in received: Int = 0, out emitted: Int = 0) {
    counts.withLock {
      $0[stage].in += received
      $0[stage].out += emitted
    }
  }

  /// The summary `--stats` prints on standard error.
  var summary: String {
    let counts = counts.withLock { $0 }
    let linesIn = counts.first?.in ?? 0
    let linesOut = counts.last?.out ?? 0
    func lines(_ count: Int) -> String { count == 1 ? "1 line" : "\(count) lines" }
    var lines = ["pace: \(lines(linesIn)) in, \(lines(linesOut)) out"]
    for (name, count) in zip(names, counts) {
      lines.append("pace:   \(name): \(count.in) in, \(count.out) out")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The stages' machines, each counting what it is given and what it emits.
  func counting<Value: Sendable, Instant: InstantProtocol>(
    _ machines: [any PacingStateMachine<Value, Instant> & Sendable]
  ) -> [any PacingStateMachine<Value, Instant> & Sendable] {
    machines.enumerated().map { CountingMachine(base: $0.element, stage: $0.offset, counts: self) }
  }
}

/// A stage's machine that counts its values in and out.
private struct CountingMachine<Value: Sendable, Instant: InstantProtocol>: PacingStateMachine, Sendable {
  var base: any PacingStateMachine<Value, Instant> & Sendable
  let stage: Int
  let counts: StageCounts

  var deadline: Instant? { base.deadline }
  var hasPendingValue: Bool { base.hasPendingValue }
  var isDiscardable: Bool { base.isDiscardable }  // Counting keeps nothing of a key: `--by` may drop it.

  private func counted(_ action: PacingAction<Value>) -> PacingAction<Value> {
    let emitted = action.reduce(0) { count, event in
      if case .value = event { count + 1 } else { count }
    }
    if emitted > 0 { counts.add(stage: stage, out: emitted) }
    return action
  }

  mutating func started(at now: Instant) -> PacingAction<Value> { counted(base.started(at: now)) }
  mutating func valueReceived(_ value: Value, at now: Instant) -> PacingAction<Value> {
    counts.add(stage: stage, in: 1)
    return counted(base.valueReceived(value, at: now))
  }
  mutating func timerFired(at now: Instant) -> PacingAction<Value> { counted(base.timerFired(at: now)) }
  mutating func upstreamFinished(at now: Instant) -> PacingAction<Value> { counted(base.upstreamFinished(at: now)) }
  mutating func upstreamFailed(at now: Instant) -> PacingAction<Value> { counted(base.upstreamFailed(at: now)) }
  mutating func flushRequested(at now: Instant) -> PacingAction<Value> { counted(base.flushRequested(at: now)) }
  mutating func cancelled(at now: Instant) -> PacingAction<Value> { counted(base.cancelled(at: now)) }
}
