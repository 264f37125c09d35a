//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import PaceTesting
import Testing

/// A pacer keeps nothing alive: not itself through its timer, not its owner
/// through a handler that captures the owner weakly.
@Suite struct PacerLifetimeTests {
  @Test func releasedWithAPendingValue_neverCallsItsHandler_andIsFreed() async throws {
    let clock = VirtualClock()
    let recorder = Recorder<Int>()
    weak var weakDebouncer: Debouncer<Int>?
    weak var weakThrottler: Throttler<Int>?
    do {
      let debouncer = try Debouncer<Int>(for: .frames(3), clock: clock, handler: recorder.record)
      let throttler = try Throttler<Int>(for: .frames(3), leading: false, clock: clock, handler: recorder.record)
      debouncer.send(1)
      throttler.send(2)
      #expect(clock.pendingTimerCount == 2)
      weakDebouncer = debouncer
      weakThrottler = throttler
    }
    #expect(weakDebouncer == nil)
    #expect(weakThrottler == nil)
    #expect(clock.pendingTimerCount == 0)
    clock.advance(to: .frame(100))
    #expect(recorder.all.isEmpty)
  }

  @Test func releasedOnTheContinuousClock_isFreedAtOnce() throws {
    weak var weakDebouncer: Debouncer<Int>?
    do {
      let debouncer = try Debouncer<Int>(for: .seconds(3_600)) { _ in }
      debouncer.send(1)  // A timer task now sleeps for an hour; it must not hold the pacer.
      weakDebouncer = debouncer
    }
    #expect(weakDebouncer == nil)
  }

  @MainActor @Test func ownerWhoseHandlerCapturesItWeakly_isFreed() async throws {
    weak var weakModel: SearchModel?
    do {
      let model = SearchModel()
      model.textChanged("swift")
      weakModel = model
    }
    #expect(weakModel == nil)
  }
}

/// The README's view model: a main-actor object that owns its debouncer.
@MainActor final class SearchModel {
  var query = ""
  private var search: Debouncer<String>?
  var onQuery: ((String) -> Void)?

  init(interval: Duration = .milliseconds(300)) {
    search = try? Debouncer(for: interval) { [weak self] text in
      MainActor.preconditionIsolated()  // The handler runs where the model lives.
      self?.query = text
      self?.onQuery?(text)
    }
  }

  func textChanged(_ text: String) { search?.send(text) }
}
