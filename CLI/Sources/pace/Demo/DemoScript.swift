//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import PaceStageText

/// A typing session for `pace demo` to replay: what the search field says
/// after each keystroke, and when.
///
/// A script has one action per line; `#` starts a comment:
///
///     type 140ms swift        # s, w, i, f, t: a key every 140 ms
///     pause 900ms             # nothing for 900 ms
///     backspace 120ms 2       # two backspaces, 120 ms apart
///     clear                   # the field is emptied at once (a clear button)
struct DemoScript: Equatable {
  struct Keystroke: Equatable {
    /// When, from the start of the session.
    var time: Duration
    /// What was pressed, for the timeline: a character, "⌫" or "clear".
    var key: String
    /// The text in the search field after it.
    var text: String
  }

  var keystrokes: [Keystroke] = []

  /// Parses a script; a mistake names its line.
  init(parsing text: String, speed: Double = 1) throws(UsageError) {
    var time = Duration.zero
    var field = ""
    for (number, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
      let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
      guard let action = words.first else { continue }
      func fail(_ reason: String) -> UsageError {
        UsageError("script line \(number + 1) '\(rawLine.trimmingSpaces)': \(reason)")
      }
      func delay(_ word: String?) throws(UsageError) -> Duration {
        guard let word, let duration = PacingDurationFormat.withUnits.duration(from: word), duration >= .zero else {
          throw fail("expected a duration with a unit, such as 150ms")
        }
        return duration / speed
      }
      switch action {
      case "type":
        guard words.count >= 3 else { throw fail("expected 'type DELAY TEXT'") }
        let step = try delay(words[1])
        for character in words[2...].joined(separator: " ") {
          time += keystrokes.isEmpty ? .zero : step
          field.append(character)
          keystrokes.append(Keystroke(time: time, key: String(character), text: field))
        }
      case "pause":
        guard words.count == 2 else { throw fail("expected 'pause DURATION'") }
        time += try delay(words[1])
      case "backspace":
        guard words.count == 2 || words.count == 3 else { throw fail("expected 'backspace DELAY [COUNT]'") }
        let step = try delay(words[1])
        guard let count = words.count == 3 ? Int(words[2]) : 1, count > 0 else {
          throw fail("the count must be a positive whole number")
        }
        for _ in 0..<count {
          time += step
          field = String(field.dropLast())
          keystrokes.append(Keystroke(time: time, key: "⌫", text: field))
        }
      case "clear":
        guard words.count == 1 else { throw fail("expected 'clear' alone") }
        field = ""
        keystrokes.append(Keystroke(time: time, key: "clear", text: field))
      default:
        throw fail("unknown action '\(action)'; use type, pause, backspace or clear")
      }
    }
    guard !keystrokes.isEmpty else { throw UsageError("the script types nothing") }
  }

  /// The session replayed when no script is given: a few searches, a typo
  /// taken back, a change of mind, pauses long and short.
  static let builtIn = """
    # The session `pace demo` replays: someone looking for a few words.
    type 180ms swi
    pause 420ms
    type 150ms ft
    pause 650ms
    type 130ms ly
    pause 200ms
    backspace 110ms 2
    pause 800ms
    clear
    pause 300ms
    type 160ms conc
    pause 250ms
    type 140ms urrent
    pause 350ms
    type 120ms ly
    pause 900ms
    backspace 100ms 9
    type 170ms dition
    pause 700ms
    clear
    type 200ms serv
    pause 350ms
    type 150ms er
    pause 1s
    """
}

extension Substring {
  /// Without the spaces around it.
  var trimmingSpaces: Substring {
    guard let start = firstIndex(where: { !$0.isWhitespace }), let end = lastIndex(where: { !$0.isWhitespace }) else {
      return ""
    }
    return self[start...end]
  }
}
