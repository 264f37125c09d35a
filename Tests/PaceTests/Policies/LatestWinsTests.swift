//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import Testing

/// The latest-wins policy, event × state: which work runs and whose end counts.
@Suite struct LatestWinsTests {
  enum Step: Sendable, CustomStringConvertible {
    case start
    case finish(UInt64)
    case cancel

    var description: String {
      switch self {
      case .start: "start"
      case .finish(let generation): "finish \(generation)"
      case .cancel: "cancel"
      }
    }
  }

  enum Answer: Equatable, Sendable {
    case started(UInt64, superseding: UInt64?)
    case finished(counts: Bool)
    case cancelled(UInt64?)
  }

  struct Cell: Sendable, CustomTestStringConvertible {
    var state: String
    var setup: [Step]
    var event: Step
    var answer: Answer
    var running: UInt64?

    var testDescription: String { "\(event), when \(state)" }
  }

  static let idle: [Step] = []
  static let running: [Step] = [.start]
  static let superseded: [Step] = [.start, .start]
  static let cancelled: [Step] = [.start, .cancel]

  static let cells: [Cell] = [
    // MARK: start
    Cell(state: "idle", setup: idle, event: .start, answer: .started(1, superseding: nil), running: 1),
    Cell(state: "running 1", setup: running, event: .start, answer: .started(2, superseding: 1), running: 2),
    Cell(state: "1 cancelled", setup: cancelled, event: .start, answer: .started(2, superseding: nil), running: 2),
    // MARK: finish
    Cell(state: "running 1", setup: running, event: .finish(1), answer: .finished(counts: true), running: nil),
    Cell(state: "2 superseded 1", setup: superseded, event: .finish(1), answer: .finished(counts: false), running: 2),
    Cell(state: "2 superseded 1", setup: superseded, event: .finish(2), answer: .finished(counts: true), running: nil),
    Cell(state: "1 cancelled", setup: cancelled, event: .finish(1), answer: .finished(counts: false), running: nil),
    Cell(state: "idle", setup: idle, event: .finish(1), answer: .finished(counts: false), running: nil),
    // MARK: cancel
    Cell(state: "running 1", setup: running, event: .cancel, answer: .cancelled(1), running: nil),
    Cell(state: "idle", setup: idle, event: .cancel, answer: .cancelled(nil), running: nil),
    Cell(state: "1 cancelled", setup: cancelled, event: .cancel, answer: .cancelled(nil), running: nil),
  ]

  static func apply(_ step: Step, to latest: inout LatestWins) -> Answer {
    switch step {
    case .start:
      let (generation, superseding) = latest.start()
      return .started(generation, superseding: superseding)
    case .finish(let generation):
      return .finished(counts: latest.finish(generation))
    case .cancel:
      return .cancelled(latest.cancel())
    }
  }

  @Test(arguments: cells)
  func cell(_ cell: Cell) {
    var latest = LatestWins()
    for step in cell.setup { _ = Self.apply(step, to: &latest) }
    #expect(Self.apply(cell.event, to: &latest) == cell.answer)
    #expect(latest.running == cell.running)
  }

  /// Generations never repeat, whatever happens between starts: a late end
  /// of old work can never pass for the latest.
  @Test func generations_neverRepeat_acrossCancelsAndFinishes() {
    var latest = LatestWins()
    var seen: Set<UInt64> = []
    for round in 0..<100 {
      let (generation, _) = latest.start()
      #expect(seen.insert(generation).inserted)
      if round.isMultiple(of: 3) { _ = latest.cancel() } else { _ = latest.finish(generation) }
      #expect(!latest.isRunning(generation))
    }
  }
}
