//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import Testing

@testable import pace

/// `--on-busy` on the library's policy: `signal` is the policy's drop, which
/// the runner answers with the stop signal (`CommandModeTests` runs it).
@Suite struct OnBusyModeTests {
  @Test(arguments: [(OnBusyMode.queue, OnBusy.queue), (.drop, .drop), (.restart, .restart), (.signal, .drop)])
  func eachMode_decidesWithTheLibrarysPolicy(mode: OnBusyMode, policy: OnBusy) {
    #expect(mode.policy == policy)
  }

  @Test func signal_isADropWhileACommandRuns_andAStartOtherwise() {
    var policy = OnBusyStateMachine<String>(OnBusyMode.signal.policy)
    #expect(policy.workRequested("a") == .start("a", generation: 1))
    #expect(policy.workRequested("b") == .drop("b"))  // The runner's cue to signal.
    #expect(policy.workFinished(generation: 1) == OnBusyAction.none)
    #expect(policy.workRequested("c") == .start("c", generation: 2))
  }

  @Test func stopSignal_readsNamesAndNumbers() {
    #expect(StopSignal("TERM") == .term && StopSignal("sigterm") == .term && StopSignal("15") == .term)
    #expect(StopSignal("USR1")?.description == "USR1")
    #expect(StopSignal("LOUD") == nil && StopSignal("0") == nil && StopSignal("65") == nil)
  }
}
