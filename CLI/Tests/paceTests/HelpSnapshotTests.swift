//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import ArgumentParser
import Testing

@testable import pace

/// The help text is part of the interface: a change to it shows up here.
/// `PaceExecutable` runs `pace` with `COLUMNS=80`.
@Suite struct HelpSnapshotTests {
  @Test(arguments: [
    (["--help"], paceHelp), (["-h"], paceHelp), (["help", "stream"], paceHelp), (["marble", "--help"], marbleHelp),
    (["help", "marble"], marbleHelp), (["demo", "--help"], demoHelp),
  ])
  func help(arguments: [String], snapshot: String) throws {
    let result = try PaceExecutable.run(arguments)
    #expect(result.status == 0)
    #expect(result.standardError.isEmpty)
    #expect(result.standardOutput == snapshot + "\n")
  }

  @Test func everyAbstract_isOneSentenceEndingWithAPeriod() {
    for command in [PaceCommand.self, StreamCommand.self, MarbleCommand.self, DemoCommand.self] as [any ParsableCommand.Type] {
      let abstract = command.configuration.abstract
      #expect(abstract.hasSuffix(".") && abstract.dropLast().allSatisfy { $0 != "." && $0 != "\n" }, "\(abstract)")
    }
  }

  static let paceHelp = #"""
    OVERVIEW: Paces the lines of standard input through stages, or runs a command
    for each line that comes out.

    Stages are plain words, a new stage starting at each operator name.
    Durations need a unit: us, ms, s, m, h (250ms, 1.5s, 2m).

      debounce DURATION [--leading] [--no-trailing] [--max-wait DURATION]
      throttle DURATION [--no-leading] [--no-trailing]
      distinct
      filter PATTERN
      skip COUNT
      take COUNT

    Pace the lines of standard input; each line comes out the moment it is
    due. At the end of the input a debounce flushes at once and a throttle
    keeps its rate; then pace exits 0.

      $ tail -f app.log | pace filter ERROR distinct throttle 10s

    Run a command for each line that comes out, with the line on its
    standard input and in PACE_LINE. A file watcher:

      $ inotifywait -mr -e close_write src | pace debounce 200ms -- make
      $ inotifywait -mr -e close_write src | \
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

      $ echo tick | pace --postgres postgres://db.internal/ops \
          throttle 1h --no-trailing -- ./nightly-report

    Try an operator on a marble diagram (see 'pace marble --help'):

      $ pace marble 'abcd----e---f-g----|' debounce 3
      ------d----e-----g-|

    See search as you type at work, debounced and latest-wins:

      $ pace demo

    Usage errors print one line on standard error and exit with status 2.

    USAGE: pace [--stats] [--by <regex>] STAGE...
           pace [--by <regex>] [--on-busy <mode>] STAGE... -- COMMAND [ARG...]
           pace --postgres <url> [--namespace <name>] [--by <regex>] STAGE...
           pace --replay [--stats] [--by <regex>] STAGE...
           pace marble [--by <regex>] DIAGRAM STAGE...
           pace demo [--script FILE] [--speed FACTOR] [--seed N] [--replay]

    ARGUMENTS:
      <stage>                 The stages, then optionally '--' and a command to run
                              for each line that comes out.

    OPTIONS:
      --replay                Read each line's time from its leading timestamp, not
                              the clock. Off by default.
      --stats                 Count the lines in and out of each stage on standard
                              error, over all keys. Off by default.
      --by <regex>            Pace each key on its own: the key is the first
                              capture group of <regex>, or else its whole match.
                              Lines that match no key share one key of their own.
                              With a command, --on-busy applies per key, and the
                              key is in PACE_KEY (unset for the lines that match no
                              key).
      --postgres <url>        Pace the keys together with every pace that names the
                              same PostgreSQL database, namespace, --by, stages and
                              command: postgres://user@host/db, or
                              postgres:///db?host=/socket/folder. The default is
                              PACE_POSTGRES_URL, when set (but not with --replay);
                              '' paces here alone.
      --namespace <name>      The PostgreSQL schema that holds the shared keys,
                              made if missing. The default is pace.
      --on-busy <mode>        What a line does while the command still runs: queue
                              runs it once more after, with the latest line; drop
                              drops it; restart stops the command, then runs it;
                              signal sends it --stop-signal. The default is queue.
                              (values: queue, drop, restart, signal)
      --stop-signal <signal>  The signal that stops the command, by name or number
                              (TERM, INT, HUP, USR1, 15...). The default is TERM.
      --stop-timeout <duration>
                              How long a stopped command has before SIGKILL, with a
                              unit (500ms, 10s). The default is 10s.
      -h, --help              Show help information.

    """#

  static let marbleHelp = #"""
    OVERVIEW: Runs a marble diagram through stages and prints the output diagram.

    Durations are in frames. In a diagram each character is one frame:

      -      a frame with no event        a      a value
      'foo'  a longer value               [ab]   events in one frame
      |      the finish                   ^      the failure
      space  nothing; aligns diagrams

    Within a frame, inputs come first, then the timers due at that frame.
    The output diagram is the last line printed. Examples:

      $ pace marble 'abcd----e---f-g-|' debounce 3
      ------d----e----[g|]
      $ pace marble 'abcdefghijk|' throttle 3
      a--d--g--j--[k|]
      $ pace marble 'aab-a--bb|' distinct filter '[ab]' skip 1
      --b-a--b-|
      $ pace marble --by . 'abab---a|' debounce 2
      ----ab--[a|]

    USAGE: pace marble [--by <regex>] DIAGRAM STAGE...

    ARGUMENTS:
      <diagram>               The input diagram, as in 'a-b-c---|'. It may start
                              with dashes.
      <stage>                 The stages, with durations in frames, as in: debounce
                              2 --leading.

    OPTIONS:
      --by <regex>            Pace each key on its own: the key is the first
                              capture group of <regex> in a value, or else its
                              whole match. Values that match no key share one key
                              of their own. It goes before the diagram.
      -h, --help              Show help information.

    """#

  static let demoHelp = #"""
    OVERVIEW: Shows search as you type, with debounced, latest-wins searches
    against a simulated backend.

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

    USAGE: pace demo [--script FILE] [--speed FACTOR] [--seed N] [--replay]

    OPTIONS:
      --script <FILE>         Replay this typing session. If omitted, replays the
                              built-in one.
      --speed <FACTOR>        Type this many times faster (0.5 is twice as slow).
                              (default: 1.0)
      --seed <N>              Seeds the backend's latencies. (default: 42)
      --replay                Replay even on a terminal. Off by default.
      -h, --help              Show help information.

    """#
}
