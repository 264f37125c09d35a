//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import PaceTesting
import Testing

@Suite struct ThrottleStateMachineTests {
  typealias Machine = ThrottleStateMachine<String, VirtualInstant>

  // The states of a leading-and-trailing throttle of 3 frames.
  static let idle: [StateMachineStep] = []
  static let window: [StateMachineStep] = [.value("a", at: 0)]  // emitted, window until 3
  static let windowPending: [StateMachineStep] = [.value("a", at: 0), .value("b", at: 1)]
  static let finishing: [StateMachineStep] = windowPending + [.finish(at: 2)]
  static let trailingWindow: [StateMachineStep] = windowPending + [.timer(at: 3)]  // b emitted, window until 6
  static let finished: [StateMachineStep] = [.value("a", at: 0), .finish(at: 1)]

  static let cells: [StateMachineCell] = [
    // valueReceived
    .init(state: "idle", setup: idle, event: .value("x", at: 0), action: .emit("x"), deadline: 3),
    .init(state: "window", setup: window, event: .value("x", at: 3), action: .none, deadline: 3),
    .init(
      state: "window with a pending value", setup: windowPending, event: .value("x", at: 2), action: .none, deadline: 3),
    .init(state: "finishing", setup: finishing, event: .value("x", at: 2), action: .none, deadline: 3),
    .init(state: "finished", setup: finished, event: .value("x", at: 2), action: .none, deadline: nil),
    // timerFired
    .init(state: "idle", setup: idle, event: .timer(at: 3), action: .none, deadline: nil),
    .init(state: "window, early", setup: windowPending, event: .timer(at: 2), action: .none, deadline: 3),
    .init(state: "window, nothing pending", setup: window, event: .timer(at: 3), action: .none, deadline: nil),
    .init(
      state: "window with a pending value", setup: windowPending, event: .timer(at: 3), action: .emit("b"), deadline: 6),
    .init(
      state: "window with a pending value, late", setup: windowPending, event: .timer(at: 5), action: .emit("b"),
      deadline: 8),
    .init(state: "trailing window", setup: trailingWindow, event: .timer(at: 6), action: .none, deadline: nil),
    .init(state: "finishing, early", setup: finishing, event: .timer(at: 2), action: .none, deadline: 3),
    .init(state: "finishing", setup: finishing, event: .timer(at: 3), action: .emitAndFinish("b"), deadline: nil),
    .init(state: "finished", setup: finished, event: .timer(at: 3), action: .none, deadline: nil),
    // upstreamFinished
    .init(state: "idle", setup: idle, event: .finish(at: 0), action: .finish, deadline: nil),
    .init(state: "window", setup: window, event: .finish(at: 1), action: .finish, deadline: nil),
    .init(
      state: "window with a pending value", setup: windowPending, event: .finish(at: 2), action: .none, deadline: 3),
    .init(state: "finishing", setup: finishing, event: .finish(at: 2), action: .none, deadline: 3),
    .init(state: "finished", setup: finished, event: .finish(at: 2), action: .none, deadline: nil),
    // upstreamFailed
    .init(state: "idle", setup: idle, event: .fail(at: 0), action: .fail, deadline: nil),
    .init(state: "window", setup: window, event: .fail(at: 1), action: .fail, deadline: nil),
    .init(
      state: "window with a pending value", setup: windowPending, event: .fail(at: 2), action: .fail, deadline: nil),
    .init(state: "finishing", setup: finishing, event: .fail(at: 2), action: .none, deadline: 3),
    .init(state: "finished", setup: finished, event: .fail(at: 2), action: .none, deadline: nil),
    // flushRequested
    .init(state: "idle", setup: idle, event: .flush(at: 0), action: .none, deadline: nil),
    .init(state: "window", setup: window, event: .flush(at: 1), action: .none, deadline: 3),
    .init(
      state: "window with a pending value", setup: windowPending, event: .flush(at: 2), action: .emit("b"), deadline: 5),
    .init(state: "finishing", setup: finishing, event: .flush(at: 2), action: .emitAndFinish("b"), deadline: nil),
    .init(state: "finished", setup: finished, event: .flush(at: 2), action: .none, deadline: nil),
    // cancelled
    .init(state: "idle", setup: idle, event: .cancel, action: .none, deadline: nil),
    .init(state: "window with a pending value", setup: windowPending, event: .cancel, action: .none, deadline: 3),
    .init(state: "finishing", setup: finishing, event: .cancel, action: .finish, deadline: nil),
    .init(state: "finished", setup: finished, event: .cancel, action: .none, deadline: nil),
  ]

  @Test(arguments: cells)
  func leadingAndTrailing(_ cell: StateMachineCell) {
    var machine = Machine(interval: .frames(3))
    for step in cell.setup { machine.apply(step) }
    #expect(machine.apply(cell.event) == cell.action)
    #expect(machine.deadline == cell.deadline.map(VirtualInstant.frame))
  }

  @Test func cancelled_keepsTheWindow_soTheRateHolds() {
    var machine = Machine(interval: .frames(3))
    _ = machine.valueReceived("a", at: .frame(0))
    _ = machine.valueReceived("b", at: .frame(1))
    _ = machine.cancelled(at: .frame(1))
    #expect(machine.valueReceived("c", at: .frame(2)) == .none)
    #expect(machine.timerFired(at: .frame(3)) == .emit("c"))
  }

  @Test func trailingOnly_emitsAtTheWindowsEnd() {
    var machine = Machine(interval: .frames(3), edges: .trailing)
    #expect(machine.valueReceived("a", at: .frame(0)) == .none)
    #expect(machine.hasPendingValue)
    #expect(machine.timerFired(at: .frame(3)) == .emit("a"))
    #expect(machine.deadline == .frame(6))
  }

  @Test func leadingOnly_dropsValuesInsideTheWindow() {
    var machine = Machine(interval: .frames(3), edges: .leading)
    #expect(machine.valueReceived("a", at: .frame(0)) == .emit("a"))
    #expect(machine.valueReceived("b", at: .frame(3)) == .none)
    #expect(!machine.hasPendingValue)
    #expect(machine.timerFired(at: .frame(3)) == .none)
    #expect(machine.upstreamFinished(at: .frame(3)) == .finish)
  }

  @Test func negativeInterval_countsAsZero_andEdgesRoundTrip() {
    #expect(Machine(interval: .frames(-1)).interval == .zero)
    for edges in [ThrottleEdges.leading, .trailing, .both] {
      #expect(Machine(interval: .frames(1), edges: edges).edges == edges)
    }
  }
}
