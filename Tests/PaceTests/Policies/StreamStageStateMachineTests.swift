//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import PaceTesting
import Testing

/// Distinct, filter, skip and take: no timer, termination passes at once.
@Suite struct StreamStageStateMachineTests {
  typealias Instant = VirtualInstant

  @Test func distinct_dropsARepeat_andLetsAChangeThrough() {
    var machine = DistinctStateMachine<String, Instant>()
    #expect(machine.valueReceived("a", at: .frame(0)) == .emit("a"))
    #expect(machine.valueReceived("a", at: .frame(1)) == .none)
    #expect(machine.valueReceived("b", at: .frame(2)) == .emit("b"))
    #expect(machine.valueReceived("a", at: .frame(3)) == .emit("a"))
    #expect(machine.deadline == nil)
    #expect(machine.upstreamFinished(at: .frame(4)) == .finish)
    #expect(machine.valueReceived("c", at: .frame(5)) == .none)
    #expect(machine.upstreamFailed(at: .frame(5)) == .none)
  }

  @Test func filter_keepsMatchingValues() {
    var machine = FilterStateMachine<String, Instant> { $0.hasPrefix("E") }
    #expect(machine.valueReceived("ERROR", at: .frame(0)) == .emit("ERROR"))
    #expect(machine.valueReceived("info", at: .frame(1)) == .none)
    #expect(machine.upstreamFailed(at: .frame(2)) == .fail)
    #expect(machine.valueReceived("ERROR", at: .frame(3)) == .none)
  }

  @Test func skip_dropsTheFirstValues() {
    var machine = SkipStateMachine<String, Instant>(count: 2)
    #expect(machine.valueReceived("a", at: .frame(0)) == .none)
    #expect(machine.valueReceived("b", at: .frame(1)) == .none)
    #expect(machine.valueReceived("c", at: .frame(2)) == .emit("c"))
    #expect(machine.remaining == 0)
    #expect(SkipStateMachine<String, Instant>(count: -1).remaining == 0)
  }

  @Test func take_finishesWithTheLastValue() {
    var machine = TakeStateMachine<String, Instant>(count: 2)
    #expect(machine.started(at: .frame(0)) == .none)
    #expect(machine.valueReceived("a", at: .frame(0)) == .emit("a"))
    #expect(machine.valueReceived("b", at: .frame(1)) == .emitAndFinish("b"))
    #expect(machine.valueReceived("c", at: .frame(2)) == .none)
    #expect(machine.upstreamFinished(at: .frame(3)) == .none)
  }

  @Test func takeZero_finishesAtTheStart() {
    var machine = TakeStateMachine<String, Instant>(count: 0)
    #expect(machine.started(at: .frame(0)) == .finish)
    #expect(machine.valueReceived("a", at: .frame(0)) == .none)
    #expect(TakeStateMachine<String, Instant>(count: -1).remaining == 0)
  }

  @Test func takeZero_withoutStart_finishesAtTheFirstValueWithoutIt() {
    var machine = TakeStateMachine<String, Instant>(count: 0)
    #expect(machine.valueReceived("a", at: .frame(0)) == .finish)
  }
}
