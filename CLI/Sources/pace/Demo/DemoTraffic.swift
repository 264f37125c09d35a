//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Synchronization

/// The requests the demo's backend has received and answered, from any
/// thread: numbered in the order they arrive, from 1.
final class DemoTraffic: Sendable {
  struct Answer: Sendable {
    var number: Int
    var query: String
    var latency: Duration
    /// When it was answered, from the start of the session.
    var time: Duration
  }

  private struct State {
    var received: [String] = []
    var answers: [Answer] = []
  }

  private let state = Mutex(State())

  /// A request arrives: its number.
  func receive(_ query: String) -> Int {
    state.withLock { state in
      state.received.append(query)
      return state.received.count
    }
  }

  func answer(_ answer: Answer) {
    state.withLock { $0.answers.append(answer) }
  }

  var receivedCount: Int { state.withLock { $0.received.count } }
  var answers: [Answer] { state.withLock { $0.answers } }

  /// Whether the request numbered `number` has been answered.
  func isAnswered(_ number: Int) -> Bool {
    state.withLock { state in state.answers.contains { $0.number == number } }
  }
}
