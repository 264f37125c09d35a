//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import PaceTesting
import Testing

@Suite struct DebounceStateMachineTests {
  typealias Machine = DebounceStateMachine<String, VirtualInstant>

  // The states of a trailing debounce of 3 frames with a max-wait of 5.
  static let idle: [StateMachineStep] = []
  static let idleAfterBurst: [StateMachineStep] = [.value("a", at: 0), .timer(at: 3)]
  static let pending: [StateMachineStep] = [.value("a", at: 0), .value("b", at: 2)]  // quiet 5, max-wait 5
  // Quiet period ends at 7, max-wait at 5.
  static let pendingLong: [StateMachineStep] = [.value("a", at: 0), .value("b", at: 1), .value("c", at: 4)]
  static let afterMaxWait: [StateMachineStep] = pendingLong + [.timer(at: 5)]  // nothing pending, quiet 7, max 10
  static let finished: [StateMachineStep] = [.value("a", at: 0), .finish(at: 1)]
  static let failed: [StateMachineStep] = [.value("a", at: 0), .fail(at: 1)]

  static let trailingCells: [StateMachineCell] = [
    // valueReceived
    .init(state: "idle", setup: idle, event: .value("x", at: 7), action: .none, deadline: 10),
    .init(state: "idle after a burst", setup: idleAfterBurst, event: .value("x", at: 7), action: .none, deadline: 10),
    .init(state: "pending", setup: pending, event: .value("x", at: 3), action: .none, deadline: 5),
    .init(state: "pending", setup: pendingLong, event: .value("x", at: 5), action: .none, deadline: 5),
    .init(state: "finished", setup: finished, event: .value("x", at: 2), action: .none, deadline: nil),
    .init(state: "failed", setup: failed, event: .value("x", at: 2), action: .none, deadline: nil),
    // timerFired
    .init(state: "idle", setup: idle, event: .timer(at: 3), action: .none, deadline: nil),
    .init(state: "pending, early", setup: pending, event: .timer(at: 4), action: .none, deadline: 5),
    .init(state: "pending, at the deadline", setup: pending, event: .timer(at: 5), action: .emit("b"), deadline: nil),
    .init(state: "pending, late", setup: pending, event: .timer(at: 9), action: .emit("b"), deadline: nil),
    .init(state: "pending, at max-wait", setup: pendingLong, event: .timer(at: 5), action: .emit("c"), deadline: 7),
    .init(state: "after max-wait, at quiet", setup: afterMaxWait, event: .timer(at: 7), action: .none, deadline: nil),
    .init(state: "finished", setup: finished, event: .timer(at: 3), action: .none, deadline: nil),
    // upstreamFinished
    .init(state: "idle", setup: idle, event: .finish(at: 0), action: .finish, deadline: nil),
    .init(state: "idle after a burst", setup: idleAfterBurst, event: .finish(at: 4), action: .finish, deadline: nil),
    .init(state: "pending", setup: pending, event: .finish(at: 3), action: .emitAndFinish("b"), deadline: nil),
    .init(state: "after max-wait", setup: afterMaxWait, event: .finish(at: 6), action: .finish, deadline: nil),
    .init(state: "finished", setup: finished, event: .finish(at: 2), action: .none, deadline: nil),
    .init(state: "failed", setup: failed, event: .finish(at: 2), action: .none, deadline: nil),
    // upstreamFailed
    .init(state: "idle", setup: idle, event: .fail(at: 0), action: .fail, deadline: nil),
    .init(state: "pending", setup: pending, event: .fail(at: 3), action: .fail, deadline: nil),
    .init(state: "finished", setup: finished, event: .fail(at: 2), action: .none, deadline: nil),
    .init(state: "failed", setup: failed, event: .fail(at: 2), action: .none, deadline: nil),
    // flushRequested
    .init(state: "idle", setup: idle, event: .flush(at: 1), action: .none, deadline: nil),
    .init(state: "pending", setup: pending, event: .flush(at: 3), action: .emit("b"), deadline: nil),
    .init(state: "after max-wait", setup: afterMaxWait, event: .flush(at: 6), action: .none, deadline: nil),
    .init(state: "finished", setup: finished, event: .flush(at: 2), action: .none, deadline: nil),
    // cancelled
    .init(state: "idle", setup: idle, event: .cancel, action: .none, deadline: nil),
    .init(state: "pending", setup: pending, event: .cancel, action: .none, deadline: nil),
    .init(state: "finished", setup: finished, event: .cancel, action: .none, deadline: nil),
  ]

  @Test(arguments: trailingCells)
  func trailingWithMaxWait(_ cell: StateMachineCell) {
    var machine = Machine(interval: .frames(3), edges: .trailing(maxWait: .frames(5)))
    for step in cell.setup { machine.apply(step) }
    #expect(machine.apply(cell.event) == cell.action)
    #expect(machine.deadline == cell.deadline.map(VirtualInstant.frame))
  }

  // The states of a leading-and-trailing debounce of 3 frames.
  static let leadingCells: [StateMachineCell] = [
    .init(state: "idle", setup: [], event: .value("a", at: 0), action: .emit("a"), deadline: 3),
    .init(state: "leading emitted", setup: [.value("a", at: 0)], event: .value("b", at: 1), action: .none, deadline: 4),
    .init(state: "leading emitted", setup: [.value("a", at: 0)], event: .timer(at: 3), action: .none, deadline: nil),
    .init(state: "leading emitted", setup: [.value("a", at: 0)], event: .finish(at: 1), action: .finish, deadline: nil),
    .init(state: "leading emitted", setup: [.value("a", at: 0)], event: .fail(at: 1), action: .fail, deadline: nil),
    .init(state: "leading emitted", setup: [.value("a", at: 0)], event: .flush(at: 1), action: .none, deadline: nil),
    .init(
      state: "pending after leading", setup: [.value("a", at: 0), .value("b", at: 1)], event: .timer(at: 4),
      action: .emit("b"), deadline: nil),
    .init(
      state: "flushed", setup: [.value("a", at: 0), .value("b", at: 1), .flush(at: 2)], event: .value("c", at: 2),
      action: .emit("c"), deadline: 5),
    .init(
      state: "cancelled", setup: [.value("a", at: 0), .value("b", at: 1), .cancel], event: .value("c", at: 2),
      action: .emit("c"), deadline: 5),
  ]

  @Test(arguments: leadingCells)
  func leadingAndTrailing(_ cell: StateMachineCell) {
    var machine = Machine(interval: .frames(3), edges: .both())
    for step in cell.setup { machine.apply(step) }
    #expect(machine.apply(cell.event) == cell.action)
    #expect(machine.deadline == cell.deadline.map(VirtualInstant.frame))
  }

  @Test func leadingOnly_neverKeepsAPendingValue() {
    var machine = Machine(interval: .frames(3), edges: .leading)
    #expect(machine.valueReceived("a", at: .frame(0)) == .emit("a"))
    #expect(machine.valueReceived("b", at: .frame(1)) == .none)
    #expect(!machine.hasPendingValue)
    #expect(machine.timerFired(at: .frame(4)) == .none)
    #expect(machine.deadline == nil)
  }

  @Test func timerFired_whenQuietAndMaxWaitCoincide_endsTheBurst() {
    var machine = Machine(interval: .frames(3), edges: .trailing(maxWait: .frames(3)))
    _ = machine.valueReceived("a", at: .frame(0))
    #expect(machine.timerFired(at: .frame(3)) == .emit("a"))
    #expect(machine.deadline == nil)
  }

  @Test func maxWait_smallerThanInterval_isRaisedToIt() {
    let machine = Machine(interval: .frames(3), edges: .trailing(maxWait: .frames(1)))
    #expect(machine.maxWait == .frames(3))
  }

  @Test func negativeDurations_countAsZero_andMaxWaitIsRaisedToTheInterval() {
    let machine = Machine(interval: .frames(-1), edges: .both(maxWait: .frames(-5)))
    #expect(machine.interval == .zero)
    #expect(machine.maxWait == .zero)
    #expect(machine.edges == .both(maxWait: .zero))
  }

  @Test(arguments: [
    DebounceEdges<Duration>.trailing(), .trailing(maxWait: .frames(4)), .leading, .both(), .both(maxWait: .frames(5)),
  ])
  func edges_roundTrip(_ edges: DebounceEdges<Duration>) {
    #expect(Machine(interval: .frames(3), edges: edges).edges == edges)
  }
}
