//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace

/// `pace demo` on a terminal: the search model on the real clock, the
/// screen redrawn at each keystroke and each event.
@MainActor
final class InteractiveDemo {
  let backend: DemoBackend
  let debounce: Duration
  private let start = ContinuousClock.now
  private var text = ""
  private var log: [String] = []
  private var keystrokes = 0
  private var searches = SearchNumbering()
  private var suppressed = 0
  private var model: SearchModel<String>?

  init(backend: DemoBackend, debounce: Duration) {
    self.backend = backend
    self.debounce = debounce
  }

  /// Runs the session, keeping this demo alive to its end: its model's
  /// closures refer to it weakly.
  func runHeld() async {
    await run()
    withExtendedLifetime(self) {}
  }

  func run() async {
    guard let terminal = RawTerminal() else { return }
    defer {
      terminal.restore()
      FileDescriptorOutput.standardOutput.write("\n")
    }
    let backend = backend
    let traffic = DemoTraffic()
    let model = SearchModel<String>(debounce: debounce) { [weak self] query in
      let number = traffic.receive(query)
      let latency = backend.latency(ofRequest: number)
      // A server does not stop because its client gave up: the answer comes anyway.
      await Task { try? await Task.sleep(for: latency) }.value
      await self?.answered(number, query, latency: latency)
      return DemoBackend.results(for: query)
    }
    self.model = model
    model.onEvent = { [weak self] event in self?.note(event) }
    draw()
    var escape = false
    for await byte in RawTerminal.keys() {
      switch byte {
      case 3, 4:  // Ctrl-C, Ctrl-D.
        return
      case 27:  // An escape sequence (arrow keys…): ignored.
        escape = true
        continue
      case 127, 8:
        text = String(text.dropLast())
      case 21:  // Ctrl-U.
        text = ""
      case 32...126 where !escape:
        text.append(Character(Unicode.Scalar(byte)))
      default:
        if escape, byte >= 64, byte != 91 { escape = false }  // The sequence's last byte.
        continue
      }
      keystrokes += 1
      model.query = text
      draw()
    }
  }

  private var elapsed: String {
    DemoReport.seconds(ContinuousClock.now - start)
  }

  private func answered(_ number: Int, _ query: String, latency: Duration) {
    let late = searches.wasCancelled(number)
    if late { suppressed += 1 }
    append("answer #\(number) (\(DemoReport.milliseconds(latency)))", query, late ? "too late: dropped" : "")
  }

  private func note(_ event: SearchModel<String>.Event) {
    switch event {
    case .debounced(let query): append("typing paused", query)
    case .skipped(let query): append("not searched again", query)
    case .started(let query):
      append("search #\(searches.started(query)) starts", query)
    case .cancelled(let query):
      let number = searches.cancelled(query) ?? 0
      append("search #\(number) cancelled", query, text.isEmpty ? "the field was cleared" : "a newer search runs")
    case .shown(let query, _):
      _ = searches.ended(query)
      append("results shown", query)
    case .discarded(let query):
      _ = searches.ended(query)
      suppressed += 1
      append("answer not shown", query, "the field says '\(text)' now")
    case .failed(let query):
      _ = searches.ended(query)
      append("search failed", query)
    case .cleared: append("results cleared", "")
    }
  }

  private func append(_ what: String, _ query: String, _ note: String = "") {
    log.append("  \(elapsed)  \(what.padding(to: 24))\(note.isEmpty ? query : query.padding(to: 12) + note)")
    if log.count > 200 { log.removeFirst(log.count - 200) }
    draw()
  }

  private func draw() {
    guard let model else { return }
    var screen = "\u{1B}[H\u{1B}[2J"
    screen += "pace demo: type to search the built-in words (Ctrl-U clears, Ctrl-C quits)\n"
    screen += "debounce \(DemoReport.milliseconds(debounce)); the backend answers in 40-900 ms, in any order\n\n"
    screen += "  search: \(text)_\n"
    if let shown = model.resultsQuery {
      let results = model.results.isEmpty ? "(none)" : model.results.joined(separator: ", ")
      screen += "  results for '\(shown)': \(results)"
    } else {
      screen += "  no results"
    }
    screen += model.isLoading ? "   (searching...)\n\n" : "\n\n"
    let counted = { (number: Int, one: String, many: String) in "\(number) \(number == 1 ? one : many)" }
    screen += "  \(counted(keystrokes, "keystroke", "keystrokes")) -> \(counted(searches.count, "search", "searches")) -> "
      + "\(counted(suppressed, "stale answer", "stale answers")) suppressed\n\n"
    screen += "  what happened, latest last:\n"
    screen += log.suffix(14).joined(separator: "\n") + "\n"
    FileDescriptorOutput.standardOutput.write(screen)
  }
}
