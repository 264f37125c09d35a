//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Testing

/// The help text is part of the interface: a change to it shows up here.
@Suite struct HelpSnapshotTests {
  @Test func paceHelp() throws {
    let result = try PaceExecutable.run(["--help"])
    #expect(result.status == 0)
    #expect(result.standardOutput == Self.paceHelp + "\n")
  }

  @Test func marbleHelp() throws {
    let result = try PaceExecutable.run(["marble", "--help"])
    #expect(result.status == 0)
    #expect(result.standardOutput == Self.marbleHelp + "\n")
  }

  static let paceHelp = #"""
    OVERVIEW: Limits and orders work that happens too often: debounce, throttle,
    distinct, filter, skip, take.

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
    standard input and in PACE_LINE; --on-busy says what a line does while
    the command still runs: queue (run once more after, with the latest
    line; the default), drop, restart (stop it and its process group with
    --stop-signal, default TERM, then KILL after --stop-timeout, default
    10s) or signal (send it --stop-signal). A file watcher:

      $ inotifywait -mr -e close_write src | pace debounce 200ms -- make
      $ inotifywait -mr -e close_write src | \
          pace debounce 200ms --on-busy restart -- ./serve

    Replay a log on its own clock: each line starts with a timestamp (RFC
    3339, or seconds since the epoch), and each line that comes out carries
    the time it was emitted. --stats counts lines per stage on standard error.

      $ pace --replay --stats throttle 10m < alerts.log

    Try an operator on a marble diagram, where each character is one frame:
    '-' is a frame with no event, a letter is a value, '[ab]' are events in
    the same frame, '|' finishes and '^' fails.

      $ pace marble 'abcd----e---f-g----|' debounce 3
      ------d----e-----g-|

    See search as you type at work, debounced and latest-wins:

      $ pace demo

    Usage errors print one line on standard error and exit with status 2.

    USAGE: pace [--stats] STAGE...
           pace [--on-busy queue|drop|restart|signal] STAGE... -- COMMAND [ARG...]
           pace --replay [--stats] STAGE...
           pace marble DIAGRAM STAGE...
           pace demo

    OPTIONS:
      -h, --help              Show help information.

    SUBCOMMANDS:
      marble                  Runs a marble diagram through stages and prints the
                              output diagram.
      demo                    Search as you type, with debounce and latest-wins
                              searches, against a simulated backend.

      See 'pace help <subcommand>' for detailed help.
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

    USAGE: pace marble DIAGRAM STAGE...

    ARGUMENTS:
      <DIAGRAM STAGE>         The input diagram, then the stages, e.g. 'a-b-c---|'
                              debounce 2 --leading.

    OPTIONS:
      -h, --help              Show help information.

    """#
}
