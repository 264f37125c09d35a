//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// What the article's hand-rolled search would have done with the same
/// session and the same backend: a new `Task` per keystroke, nothing
/// debounced, nothing cancelled, every answer shown when it comes.
///
///     func queryChanged(_ query: String) {
///       Task { results = try await api.search(query) }
///     }
///
/// It needs no concurrency to know: the requests go out at the keystrokes,
/// and each answer lands after its latency.
struct NaiveSearch {
  struct Outcome: Equatable {
    var requests = 0
    var resultsShown = 0
    /// Answers shown while the field said something else, or over a newer answer.
    var staleShown = 0
    /// The query of the results on screen at the end, if any.
    var endsShowing: String?
  }

  static func run(_ script: DemoScript, backend: DemoBackend) -> Outcome {
    var outcome = Outcome()
    var arrivals: [(time: Duration, number: Int, query: String)] = []
    for keystroke in script.keystrokes where !keystroke.text.isEmpty {
      outcome.requests += 1
      arrivals.append(
        (keystroke.time + backend.latency(ofRequest: outcome.requests), outcome.requests, keystroke.text))
    }
    arrivals.sort { ($0.time, $0.number) < ($1.time, $1.number) }
    var shownNumber = 0
    for arrival in arrivals {
      // The field's text then: the last keystroke at or before the answer.
      let field = script.keystrokes.last { $0.time <= arrival.time }?.text ?? ""
      outcome.resultsShown += 1
      if arrival.query != field || arrival.number < shownNumber { outcome.staleShown += 1 }
      shownNumber = arrival.number
      outcome.endsShowing = arrival.query
    }
    return outcome
  }
}
