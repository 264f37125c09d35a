//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import ArgumentParser
import Pace

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `pace demo`: search as you type against a simulated backend, with Pace's
/// `SearchModel`; interactive on a terminal, a replayed session otherwise.
struct DemoCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "demo",
    abstract: "Shows search as you type, with debounced, latest-wins searches against a simulated backend.",
    usage: "pace demo [--script FILE] [--speed FACTOR] [--seed N] [--replay]",
    discussion: """
      On a terminal, type: each key updates the query; the typing pauses,
      a search starts and the one before is cancelled; the answers come in
      any order, and only the latest query's results are shown. Ctrl-C,
      Ctrl-D or Esc quits.

      Otherwise (or with --replay) it replays a typing session on virtual
      time and prints its timeline and a summary, next to what a hand-rolled
      search (a new Task per keystroke, nothing cancelled) would have shown.
      The same seed gives the same timeline. A script has one action a line:

        type 140ms swift      keys, 140 ms apart
        pause 900ms           nothing for a while
        backspace 120ms 2     two backspaces, 120 ms apart
        clear                 the field is emptied at once
      """,
    helpNames: .shortAndLong
  )

  @Option(
    help: ArgumentHelp("Replay this typing session. If omitted, replays the built-in one.", valueName: "FILE"),
    completion: .file())
  var script: String?

  @Option(help: ArgumentHelp("Type this many times faster (0.5 is twice as slow).", valueName: "FACTOR"))
  var speed: Double = 1

  @Option(help: ArgumentHelp("Seeds the backend's latencies.", valueName: "N"))
  var seed: UInt64 = 42

  @Flag(help: "Replay even on a terminal. Off by default.")
  var replay = false

  /// The quiet period of the demo's search model.
  static let debounce = Duration.milliseconds(300)

  func validate() throws {
    guard speed > 0, speed.isFinite else {
      throw ValidationError("--speed \(speed): the factor must be a positive number")
    }
  }

  func run() async throws {
    let backend = DemoBackend(seed: seed)
    if script == nil, !replay, isatty(0) == 1, isatty(1) == 1 {
      // Held for the whole session: its model's closures refer to it weakly.
      await MainActor.run {
        InteractiveDemo(backend: backend, debounce: Self.debounce)
      }.runHeld()
      return
    }
    let session = try DemoScript(parsing: try scriptText(), speed: speed)
    print(await Self.replay(session, seed: seed, speed: speed))
  }

  /// The replay's whole output.
  @MainActor
  static func replay(_ script: DemoScript, seed: UInt64, speed: Double) async -> String {
    let backend = DemoBackend(seed: seed)
    let entries = await DemoReplay(script: script, backend: backend, debounce: debounce).run()
    return DemoReport(entries: entries, script: script, backend: backend).text(
      seed: seed, speed: speed, debounce: debounce)
  }

  private func scriptText() throws(UsageError) -> String {
    guard let script else { return DemoScript.builtIn }
    guard let file = fopen(script, "r") else {
      throw UsageError("--script \(script): cannot read the file")
    }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = fread(&buffer, 1, buffer.count, file)
      if count <= 0 { break }
      bytes += buffer[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
