//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import ArgumentParser
import Pace
import PacePostgres
import PaceStageText

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `pace [--replay] [--stats] [--by REGEX] [--on-busy …] STAGE... [-- COMMAND [ARG...]]`:
/// the stream, replay and command modes, and `pace`'s default subcommand.
///
/// The options may stand anywhere before `--`. Every other word up to `--`
/// belongs to the stages, which the library's one stage parser reads;
/// the words after `--` are the command.
struct StreamCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "stream",
    abstract: "Paces the lines of standard input through stages, or runs a command for each line that comes out.",
    usage: """
      pace [--stats] [--by <regex>] STAGE...
      pace [--by <regex>] [--on-busy <mode>] STAGE... -- COMMAND [ARG...]
      pace --postgres <url> [--namespace <name>] [--by <regex>] STAGE...
      pace --replay [--stats] [--by <regex>] STAGE...
      pace marble [--by <regex>] DIAGRAM STAGE...
      pace demo [--script FILE] [--speed FACTOR] [--seed N] [--replay]
      """,
    discussion: """
      Stages are plain words, a new stage starting at each operator name.
      Durations need a unit: us, ms, s, m, h (250ms, 1.5s, 2m).

      \(PacingOperator.allCases.map { "  " + $0.synopsis }.joined(separator: "\n"))

      Pace the lines of standard input; each line comes out the moment it is
      due. At the end of the input a debounce flushes at once and a throttle
      keeps its rate; then pace exits 0.

        $ tail -f app.log | pace filter ERROR distinct throttle 10s

      Run a command for each line that comes out, with the line on its
      standard input and in PACE_LINE. A file watcher:

        $ inotifywait -mr -e close_write src | pace debounce 200ms -- make
        $ inotifywait -mr -e close_write src | \\
            pace debounce 200ms --on-busy restart -- ./serve

      Replay a log on its own clock: each line starts with a timestamp (RFC
      3339, or seconds since the epoch), and each line that comes out carries
      the time it was emitted.

        $ pace --replay --stats throttle 10m < alerts.log

      Pace each key on its own with --by: the key is the regular
      expression's first capture group, or else its whole match; the lines
      that match no key share one key of their own. Keys do not wait for
      one another: at one instant, the key whose deadline was set first
      comes first. At most one alert per host every 10 minutes:

        $ tail -f alerts.log | pace --by 'host=([^ ]+)' throttle 10m

      Share keys across processes and hosts with --postgres (PACE_POSTGRES_URL
      is the default): every pace that names the same database, namespace,
      --by, stages and command paces the same keys, on the database's clock.
      Each emission is delivered once across them, by whichever pace claims
      it (at least once: one whose pace dies mid-command is run again by
      another). The end of one pace's input flushes nothing early; it exits
      once what its own lines' keys hold has been delivered (so a job wants
      --no-trailing: a trailing edge would hold every pace for the window).
      A cron job on every host, run at most once an hour across them:

        $ echo tick | pace --postgres postgres://db.internal/ops \\
            throttle 1h --no-trailing -- ./nightly-report

      Try an operator on a marble diagram (see 'pace marble --help'):

        $ pace marble 'abcd----e---f-g----|' debounce 3
        ------d----e-----g-|

      See search as you type at work, debounced and latest-wins:

        $ pace demo

      Usage errors print one line on standard error and exit with status 2.
      """,
    // `pace --help` is this command's help (the root asks for none of its own).
    helpNames: .shortAndLong
  )

  @Flag(help: "Read each line's time from its leading timestamp, not the clock. Off by default.")
  var replay = false

  @Flag(help: "Count the lines in and out of each stage on standard error, over all keys. Off by default.")
  var stats = false

  @Option(
    help: ArgumentHelp(
      """
      Pace each key on its own: the key is the first capture group of <regex>, \
      or else its whole match. Lines that match no key share one key of their \
      own. With a command, --on-busy applies per key, and the key is in \
      PACE_KEY (unset for the lines that match no key).
      """,
      valueName: "regex"),
    transform: { try KeyPattern($0) })
  var by: KeyPattern?

  @Option(
    help: ArgumentHelp(
      """
      Pace the keys together with every pace that names the same PostgreSQL \
      database, namespace, --by, stages and command: postgres://user@host/db, \
      or postgres:///db?host=/socket/folder. The default is \
      PACE_POSTGRES_URL, when set (but not with --replay); '' paces here alone.
      """,
      valueName: "url"))
  var postgres: String?

  @Option(
    help: ArgumentHelp(
      "The PostgreSQL schema that holds the shared keys, made if missing. The default is pace.",
      valueName: "name"))
  var namespace: String?

  @Option(
    help: ArgumentHelp(
      """
      What a line does while the command still runs: queue runs it once more \
      after, with the latest line; drop drops it; restart stops the command, \
      then runs it; signal sends it --stop-signal. The default is queue.
      """,
      valueName: "mode"))
  var onBusy: OnBusyMode?

  @Option(
    help: ArgumentHelp(
      "The signal that stops the command, by name or number (TERM, INT, HUP, USR1, 15...). The default is TERM.",
      valueName: "signal"),
    completion: .list(StopSignal.names.map(\.key)),
    transform: { text in
      guard let signal = StopSignal(text) else { throw UsageError("not a signal name or number such as TERM or 15") }
      return signal
    })
  var stopSignal: StopSignal?

  @Option(
    help: ArgumentHelp(
      "How long a stopped command has before SIGKILL, with a unit (500ms, 10s). The default is 10s.",
      valueName: "duration"),
    transform: { text in
      guard let duration = PacingDurationFormat.withUnits.duration(from: text) else {
        throw UsageError("a duration needs a unit, as in 10s or 500ms")
      }
      return duration
    })
  var stopTimeout: Duration?

  /// The stage words, and `--` and the command if given. Not split off with
  /// `.postTerminator`, which drops the `--`: a `--` with nothing after it
  /// must be an error, not the absence of a command. Options of the stages
  /// (`--max-wait=2s`) and patterns that start with a dash (`filter -x`)
  /// are unrecognized by `pace`, and so come here as written.
  @Argument(
    parsing: .allUnrecognized,
    help: ArgumentHelp(
      "The stages, then optionally '--' and a command to run for each line that comes out.",
      valueName: "stage"))
  var words: [String] = []

  /// The words before `--`: the stages'.
  var stageWords: ArraySlice<String> {
    words.prefix { $0 != "--" }
  }

  /// The words after `--`, if there is one: the command and its arguments.
  var command: ArraySlice<String>? {
    words.firstIndex(of: "--").map { words[($0 + 1)...] }
  }

  func validate() throws {
    if words.isEmpty, !replay, !stats, by == nil, onBusy == nil, stopSignal == nil, stopTimeout == nil {
      throw CleanExit.helpRequest(self)  // `pace` alone shows its help.
    }
    if command?.isEmpty == true {
      throw ValidationError("'--' must be followed by a command, as in: pace debounce 200ms -- make")
    }
    if command == nil {
      let given = [
        ("--on-busy \(onBusy?.rawValue ?? "")", onBusy != nil),
        ("--stop-signal \(stopSignal?.description ?? "")", stopSignal != nil),
        ("--stop-timeout 5s", stopTimeout != nil),
      ]
      if let example = given.first(where: \.1)?.0 {
        let option = example.prefix { $0 != " " }
        throw ValidationError(
          "'\(option)' applies to a command: add one after '--', as in: pace debounce 1s \(example) -- make")
      }
    }
    if replay, command != nil {
      throw ValidationError("--replay runs on the log's own clock, so it cannot run a command: remove one of them")
    }
    try validateFleet()
    // Stages start with an operator's name: a first word with dashes is an option pace does not have.
    if let first = stageWords.first, first.hasPrefix("-") {
      throw ValidationError("unknown option '\(first)' (see 'pace --help')")
    }
    _ = try stages { (line: Line) in line.text }
  }

  /// The rules of `--postgres` and `--namespace`.
  private func validateFleet() throws {
    if replay, postgres != nil {
      throw ValidationError("--replay runs on the log's own clock, --postgres on the database's: remove one of them")
    }
    guard let source = fleetSource else {
      if namespace != nil {
        throw ValidationError("--namespace names where --postgres keeps its keys: add --postgres URL, or remove it")
      }
      return
    }
    if stats {
      throw ValidationError("--stats counts this process's stages, and with \(source) they are the fleet's: remove one of them")
    }
    if let onBusy, onBusy != .queue {
      throw ValidationError(
        "with \(source), a key's command runs once at a time across the fleet, each after the one before "
          + "(--on-busy queue): remove --on-busy \(onBusy.rawValue)")
    }
    _ = try fleetStream()
  }

  /// Where the fleet's URL comes from, when there is one: `--postgres`, or
  /// else `PACE_POSTGRES_URL` (not with `--replay`).
  private var fleetSource: String? {
    if let postgres { return postgres.isEmpty ? nil : "--postgres" }
    if !replay, let url = Self.environment("PACE_POSTGRES_URL"), !url.isEmpty { return "PACE_POSTGRES_URL" }
    return nil
  }

  /// The fleet stream, with `--postgres` (or `PACE_POSTGRES_URL`); nil without.
  func fleetStream() throws(UsageError) -> FleetStream? {
    guard let text = postgres ?? (replay ? nil : Self.environment("PACE_POSTGRES_URL")), !text.isEmpty else {
      return nil
    }
    var environment: [String: String] = [:]
    for name in ["PGUSER", "USER", "PGPASSWORD"] { environment[name] = Self.environment(name) }
    let url: PostgresURL
    do {
      url = try PostgresURL(text, environment: environment)
    } catch where postgres == nil && error.message.hasPrefix("--postgres") {
      // The URL came from the environment: say so, not an option not given.
      throw UsageError("PACE_POSTGRES_URL" + error.message.dropFirst("--postgres".count))
    }
    let namespace: PaceNamespace
    do {
      namespace = try PaceNamespace(self.namespace ?? "pace")
    } catch {
      throw UsageError("--namespace: \(error)")
    }
    let stages = try stages { (line: FleetLine) in line.text }
    // Only processes that pace the same way share keys: the name is what
    // decides the pacing, as written (a word with a space or a quote in
    // single quotes, so that `sh -c 'echo a'` and `sh -c echo a` differ).
    var name = by.map { ["--by", $0.source] } ?? []
    name += stageWords
    if let command { name += ["--"] + command }
    return FleetStream(
      url: url, namespace: namespace, stages: stages, pattern: by, command: commandOptions,
      pacerName: name.map(Self.quotedIfNeeded).joined(separator: " "))
  }

  /// `word` as a shell would need it: as it is, or in single quotes.
  private static func quotedIfNeeded(_ word: String) -> String {
    let plain = !word.isEmpty && word.unicodeScalars.allSatisfy { !" \t\n'\"\\".unicodeScalars.contains($0) }
    return plain ? word : "'" + word.replacing("'", with: #"'\''"#) + "'"
  }

  private static func environment(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }

  /// The command and its options, when there is one.
  var commandOptions: CommandOptions? {
    guard let command, let executable = command.first else { return nil }
    var options = CommandOptions(executable: executable, arguments: Array(command.dropFirst()))
    options.onBusy = onBusy ?? options.onBusy
    options.stopSignal = stopSignal ?? options.stopSignal
    options.stopTimeout = stopTimeout ?? options.stopTimeout
    options.isKeyed = by != nil
    return options
  }

  /// The stages, for values of any type; `text` is what a filter matches.
  func stages<Value: Equatable & Sendable>(
    text: @escaping @Sendable (Value) -> String
  ) throws(UsageError) -> [PacingStage<Value>] {
    try UsageError.parsingStages(
      Array(stageWords), durations: .withUnits, text: text, naming: { "stage word \($0 + 1)" }, help: "pace --help")
  }

  /// The stages' names, for `--stats`: "1 debounce", "2 distinct".
  static func names<Value>(of stages: [PacingStage<Value>]) -> [String] {
    stages.enumerated().map { "stage \($0.offset + 1) (\($0.element.operator.name))" }
  }
}
