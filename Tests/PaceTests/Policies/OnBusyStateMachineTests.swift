//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import Testing

/// The on-busy policy, event × state, for each of its answers.
@Suite struct OnBusyStateMachineTests {
  typealias Machine = OnBusyStateMachine<String>

  enum Step: Sendable, CustomStringConvertible {
    case request(String)
    case finish(UInt64)
    case cancel

    var description: String {
      switch self {
      case .request(let request): "request \(request)"
      case .finish(let generation): "finish \(generation)"
      case .cancel: "cancel"
      }
    }
  }

  struct Cell: Sendable, CustomTestStringConvertible {
    var onBusy: OnBusy
    var state: String
    var setup: [Step]
    var event: Step
    var action: OnBusyAction<String>
    /// The running generation after the event, and whether a request waits.
    var running: UInt64?
    var waiting = false

    var testDescription: String { "\(onBusy): \(event) when \(state) → \(action)" }
  }

  static func apply(_ step: Step, to machine: inout Machine) -> OnBusyAction<String> {
    switch step {
    case .request(let request): machine.workRequested(request)
    case .finish(let generation): machine.workFinished(generation: generation)
    case .cancel: machine.cancelled()
    }
  }

  static let idle: [Step] = []
  static let running: [Step] = [.request("a")]  // generation 1
  static let runningWithWaiting: [Step] = [.request("a"), .request("b")]  // queue only
  static let idleAgain: [Step] = [.request("a"), .finish(1)]

  static let cells: [Cell] = [
    // Every policy: a request while idle starts; a finish while idle is stale.
    Cell(
      onBusy: .queue, state: "idle", setup: idle, event: .request("x"), action: .start("x", generation: 1), running: 1),
    Cell(
      onBusy: .drop, state: "idle", setup: idle, event: .request("x"), action: .start("x", generation: 1), running: 1),
    Cell(
      onBusy: .restart, state: "idle", setup: idle, event: .request("x"), action: .start("x", generation: 1), running: 1
    ),
    Cell(
      onBusy: .queue, state: "idle again", setup: idleAgain, event: .request("x"), action: .start("x", generation: 2),
      running: 2),
    Cell(onBusy: .queue, state: "idle", setup: idle, event: .finish(1), action: .none, running: nil),
    Cell(onBusy: .queue, state: "idle", setup: idle, event: .cancel, action: .none, running: nil),
    // A request while running: each policy's answer.
    Cell(
      onBusy: .queue, state: "running", setup: running, event: .request("x"), action: .wait(superseding: nil),
      running: 1, waiting: true),
    Cell(
      onBusy: .queue, state: "running, b waiting", setup: runningWithWaiting, event: .request("x"),
      action: .wait(superseding: "b"), running: 1, waiting: true),
    Cell(onBusy: .drop, state: "running", setup: running, event: .request("x"), action: .drop("x"), running: 1),
    Cell(
      onBusy: .restart, state: "running", setup: running, event: .request("x"),
      action: .restart(cancelling: 1, start: "x", generation: 2), running: 2),
    // A finish: the waiting request starts; otherwise idle; a stale one changes nothing.
    Cell(
      onBusy: .queue, state: "running, b waiting", setup: runningWithWaiting, event: .finish(1),
      action: .start("b", generation: 2), running: 2),
    Cell(onBusy: .queue, state: "running", setup: running, event: .finish(1), action: .none, running: nil),
    Cell(onBusy: .queue, state: "running", setup: running, event: .finish(7), action: .none, running: 1),
    Cell(
      onBusy: .restart, state: "restarted", setup: [.request("a"), .request("b")], event: .finish(1), action: .none,
      running: 2),
    Cell(onBusy: .drop, state: "running", setup: running, event: .finish(1), action: .none, running: nil),
    // A cancel: the running work is cancelled, the waiting request never runs.
    Cell(
      onBusy: .queue, state: "running, b waiting", setup: runningWithWaiting, event: .cancel,
      action: .cancelAll(cancelling: 1, superseding: "b"), running: nil),
    Cell(
      onBusy: .restart, state: "running", setup: running, event: .cancel,
      action: .cancelAll(cancelling: 1, superseding: nil), running: nil),
  ]

  @Test(arguments: cells)
  func cell(_ cell: Cell) {
    var machine = Machine(cell.onBusy)
    for step in cell.setup { _ = Self.apply(step, to: &machine) }
    #expect(Self.apply(cell.event, to: &machine) == cell.action)
    #expect(machine.runningGeneration == cell.running)
    #expect(machine.hasWaitingRequest == cell.waiting)
  }

  @Test func queue_alwaysRunsAfterTheLastRequest_andAtMostOneWaits() {
    var machine = Machine(.queue)
    var started: [String] = []
    var superseded: [String] = []
    func record(_ action: OnBusyAction<String>) {
      switch action {
      case .start(let request, _): started.append(request)
      case .wait(let superseding?): superseded.append(superseding)
      default: break
      }
    }
    record(machine.workRequested("a"))
    for request in ["b", "c", "d"] { record(machine.workRequested(request)) }
    record(machine.workFinished(generation: 1))
    record(machine.workFinished(generation: 2))
    #expect(started == ["a", "d"])  // Exactly one run after the burst, with the latest request.
    #expect(superseded == ["b", "c"])
    #expect(machine.runningGeneration == nil)
  }

  @Test func restart_decidesByGeneration_neverByComparingRequests() {
    var machine = Machine(.restart)
    _ = machine.workRequested("same")
    #expect(machine.workRequested("same") == .restart(cancelling: 1, start: "same", generation: 2))
    // The first "same" finishing late is stale, although its request is equal.
    #expect(machine.workFinished(generation: 1) == .none)
    #expect(machine.runningGeneration == 2)
  }
}
