//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace

/// The text `pace demo` prints for a replay: the timeline, then a summary
/// beside the hand-rolled version's.
struct DemoReport {
  struct Outcome: Equatable {
    var keystrokes = 0
    var requests = 0
    var cancelled = 0
    var lateAnswersDropped = 0
    /// Answers that came after the field had changed: not shown.
    var answersNotShown = 0
    var resultsShown = 0
    var staleShown = 0
    var endsShowing: String?
    var fieldText = ""
  }

  var timeline: [String] = []
  var outcome = Outcome()
  var naive = NaiveSearch.Outcome()

  init(entries: [DemoReplay.Entry], script: DemoScript, backend: DemoBackend) {
    outcome.keystrokes = script.keystrokes.count
    outcome.fieldText = script.keystrokes.last?.text ?? ""
    var searches = SearchNumbering()
    for entry in entries {
      let time = Self.seconds(entry.time)
      func line(_ what: String, _ query: String, _ note: String = "") {
        let text = "  \(time)  \(what.padding(to: 24))\(note.isEmpty ? query : query.padding(to: 12) + note)"
        timeline.append(text.trailingSpacesRemoved)
      }
      switch entry.record {
      case .key(let keystroke):
        line(keystroke.key == "clear" ? "field cleared" : "key '\(keystroke.key)'", keystroke.text)
      case .model(let event, let field):
        switch event {
        case .debounced(let query):
          line("typing paused", query)
        case .skipped(let query):
          line("not searched again", query, "the last query searched")
        case .started(let query):
          outcome.requests += 1
          line("search #\(searches.started(query)) starts", query)
        case .cancelled(let query):
          outcome.cancelled += 1
          let number = searches.cancelled(query)
          line("search #\(number ?? 0) cancelled", query, field.isEmpty ? "the field was cleared" : "a newer search runs")
        case .shown(let query, let count):
          _ = searches.ended(query)
          outcome.resultsShown += 1
          if query != String(field[...].trimmingSpaces) { outcome.staleShown += 1 }
          outcome.endsShowing = query
          let words = DemoBackend.results(for: query)
          line("results shown", query, count == 0 ? "(none)" : words.joined(separator: ", "))
        case .discarded(let query):
          _ = searches.ended(query)
          outcome.answersNotShown += 1
          line("answer not shown", query, "the field says '\(field)' now")
        case .failed(let query):
          _ = searches.ended(query)
          line("search failed", query)
        case .cleared:
          outcome.endsShowing = nil
          line("results cleared", "")
        }
      case .answer(let answer):
        let late = searches.wasCancelled(answer.number)
        if late { outcome.lateAnswersDropped += 1 }
        line(
          "answer #\(answer.number) (\(Self.milliseconds(answer.latency)))", answer.query,
          late ? "too late: dropped" : "")
      }
    }
    naive = NaiveSearch.run(script, backend: backend)
  }

  /// Everything `pace demo` prints after a replay.
  func text(seed: UInt64, speed: Double, debounce: Duration) -> String {
    var lines = [
      "pace demo: search as you type, replayed on virtual time",
      "seed \(seed), speed \(speed)x, debounce \(Self.milliseconds(debounce)), "
        + "backend latency 40-900 ms per request (seeded)",
      "",
      "  " + "time".leftPadding(to: 8) + "  " + "what".padding(to: 24) + "query".padding(to: 12) + "note",
    ]
    lines += timeline
    func row(_ name: String, _ values: [String]) -> String {
      name.padding(to: 30) + values.map { $0.leftPadding(to: 11) }.joined()
    }
    func ends(_ query: String?) -> String { query.map { "'\($0)'" } ?? "nothing" }
    lines += [
      "",
      "summary: \(outcome.keystrokes) keystrokes, the field ends with '\(outcome.fieldText)'",
      row("", ["requests", "cancelled", "shown", "stale", "ends on"]),
      row(
        "  Pace SearchModel",
        ["\(outcome.requests)", "\(outcome.cancelled)", "\(outcome.resultsShown)", "\(outcome.staleShown)",
          ends(outcome.endsShowing)]),
      row(
        "  naive: a Task per keystroke",
        ["\(naive.requests)", "0", "\(naive.resultsShown)", "\(naive.staleShown)", ends(naive.endsShowing)]),
      "",
      "Pace: \(outcome.keystrokes) keystrokes -> \(outcome.requests) searches run -> "
        + "\(outcome.lateAnswersDropped + outcome.answersNotShown) stale answer(s) suppressed "
        + "(\(outcome.lateAnswersDropped) too late, \(outcome.answersNotShown) for a query the field no longer says), "
        + "\(outcome.staleShown) stale results shown.",
      "Naive: \(outcome.keystrokes) keystrokes -> \(naive.requests) searches run -> 0 suppressed, "
        + "\(naive.staleShown) stale results shown (an answer for another query, or over a newer one).",
    ]
    return lines.joined(separator: "\n")
  }

  /// `1.234s`, from the start of the session.
  static func seconds(_ duration: Duration) -> String {
    let milliseconds = Int(duration / .milliseconds(1))
    let fraction = String(milliseconds % 1000)
    return "\(milliseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)s".leftPadding(
      to: 8)
  }

  /// `250 ms`.
  static func milliseconds(_ duration: Duration) -> String {
    "\(Int((duration / .milliseconds(1)).rounded())) ms"
  }
}

extension String {
  func padding(to width: Int) -> String {
    count >= width ? self + " " : self + String(repeating: " ", count: width - count)
  }

  func leftPadding(to width: Int) -> String {
    count >= width ? " " + self : String(repeating: " ", count: width - count) + self
  }

  var trailingSpacesRemoved: String {
    String(self[..<(lastIndex { $0 != " " }.map { index(after: $0) } ?? startIndex)])
  }
}
