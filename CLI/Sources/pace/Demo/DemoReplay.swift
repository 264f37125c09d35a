//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
@_spi(Tools) import PaceMarbles

/// Replays a typing session through Pace's ``SearchModel`` on virtual time:
/// the model, its debouncer and its latest-wins searches run as they would
/// in an app, but the clock moves only when everything has reacted to the
/// last step, so the same script and seed give the same timeline.
@MainActor
final class DemoReplay {
  /// Something that happened, and when.
  struct Entry {
    enum Record {
      case key(DemoScript.Keystroke)
      case model(SearchModel<String>.Event, fieldText: String)
      case answer(DemoTraffic.Answer)
    }

    var time: Duration
    /// Within one instant: keystrokes and what they cause (0), then answers
    /// (1, by request number), then what timers and answers cause (2).
    var phase: Int
    var order: Int
    var record: Record
  }

  let script: DemoScript
  let backend: DemoBackend
  let debounce: Duration
  private let clock = VirtualClock()
  private let traffic = DemoTraffic()
  private var entries: [Entry] = []
  private var phase = 0
  private var started = 0
  /// The searches without an outcome yet: number and query.
  private var open: [(number: Int, query: String)] = []
  /// Whether the field was cleared since the latest search started: that
  /// search is cancelled, and its outcome is on its way.
  private var clearedSinceStart = false

  init(script: DemoScript, backend: DemoBackend, debounce: Duration) {
    self.script = script
    self.backend = backend
    self.debounce = debounce
  }

  /// Runs the whole session: every keystroke, then until nothing is pending.
  func run() async -> [Entry] {
    let (clock, traffic, backend) = (clock, traffic, backend)
    let start = clock.now
    let model = SearchModel<String>(debounce: debounce, clock: clock) { query in
      let number = traffic.receive(query)
      let latency = backend.latency(ofRequest: number)
      let deadline = clock.now.advanced(by: latency)
      // A server does not stop because its client gave up: the answer comes anyway.
      await Task { try? await clock.sleep(until: deadline) }.value
      traffic.answer(.init(number: number, query: query, latency: latency, time: clock.now.offset - start.offset))
      return DemoBackend.results(for: query)
    }
    model.onEvent = { [unowned self, unowned model] event in
      switch event {
      case .started(let query):
        started += 1
        open.append((started, query))
        clearedSinceStart = false
      case .cancelled(let query), .shown(let query, _), .discarded(let query), .failed(let query):
        if let index = open.firstIndex(where: { $0.query == query }) { open.remove(at: index) }
      case .cleared:
        clearedSinceStart = true
      case .debounced, .skipped:
        break
      }
      record(.model(event, fieldText: model.query))
    }
    var keystrokes = script.keystrokes[...]
    while true {
      let nextKey = keystrokes.first.map { start.advanced(by: $0.time) }
      let nextTimer = clock.nextDeadline
      guard let next = [nextKey, nextTimer].compactMap({ $0 }).min() else { break }
      clock.jump(to: next)
      // Within an instant, inputs first, then the timers due (MARBLES.md, time rule 1).
      phase = 0
      while let keystroke = keystrokes.first, start.advanced(by: keystroke.time) == next {
        keystrokes.removeFirst()
        record(.key(keystroke))
        model.query = keystroke.text
        await settle()
      }
      phase = 2
      clock.fireDueTimers()
      await settle()
    }
    let answers = traffic.answers.map {
      Entry(time: $0.time, phase: 1, order: $0.number, record: .answer($0))
    }
    return (entries + answers).sorted { ($0.time, $0.phase, $0.order) < ($1.time, $1.phase, $1.order) }
  }

  private func record(_ record: Entry.Record) {
    entries.append(Entry(time: clock.now.offset, phase: phase, order: entries.count, record: record))
  }

  /// Returns once everything has reacted to the last step: deliveries done,
  /// every search started has reached the backend, every request not yet
  /// answered sleeps on the clock, and every search has its outcome but the
  /// latest, while its answer has not come and the field was not cleared
  /// since it started (latest wins: no other may wait; a clear cancels it,
  /// whatever the clock does next).
  private func settle() async {
    for _ in 0..<1_000_000 {
      await clock.settle()
      let received = traffic.receivedCount
      let answered = traffic.answers.count
      let latestMayWait = open.count == 1 && open[0].number == started && !traffic.isAnswered(started) && !clearedSinceStart
      let outcomesIn = open.isEmpty || latestMayWait
      if received == started, clock.sleeperCount == received - answered, outcomesIn {
        return
      }
      await Task.yield()
    }
    fatalError("pace demo: the replay did not settle; this is a bug")
  }
}
