//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import ArgumentParser
import Pace
import PaceStageText
import PaceMarbles

/// `pace marble DIAGRAM STAGE...`: runs a diagram through stages in virtual
/// frames and prints the output diagram.
struct MarbleCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "marble",
    abstract: "Runs a marble diagram through stages and prints the output diagram.",
    usage: "pace marble [--by <regex>] DIAGRAM STAGE...",
    discussion: """
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
      """,
    helpNames: .shortAndLong
  )

  @Option(
    help: ArgumentHelp(
      """
      Pace each key on its own: the key is the first capture group of <regex> \
      in a value, or else its whole match. Values that match no key share one \
      key of their own. It goes before the diagram.
      """,
      valueName: "regex"),
    transform: { try KeyPattern($0) })
  var by: KeyPattern?

  @Argument(help: "The input diagram, as in 'a-b-c---|'. It may start with dashes.")
  var diagram: String?

  @Argument(help: ArgumentHelp("The stages, with durations in frames, as in: debounce 2 --leading.", valueName: "stage"))
  var stages: [String] = []

  func validate() throws {
    _ = try output()
  }

  func run() throws {
    print(try output())
  }

  /// The output diagram.
  func output() throws(UsageError) -> String {
    try Self.output(diagram: diagram, stages: stages, by: by)
  }

  /// The output diagram for the diagram and stage words as written, per
  /// key of `pattern` if given.
  static func output(diagram text: String?, stages: [String], by pattern: KeyPattern? = nil) throws(UsageError) -> String {
    guard let text else {
      throw UsageError("missing the diagram: pace marble DIAGRAM STAGE... (see 'pace marble --help')")
    }
    // After the diagram every word is a stage's, even one that looks like an option.
    if let misplaced = stages.first(where: { $0 == "--by" || $0.hasPrefix("--by=") }) {
      throw UsageError("'\(misplaced)' goes before the diagram: pace marble --by REGEX DIAGRAM STAGE...")
    }
    let diagram: MarbleDiagram
    do {
      diagram = try MarbleDiagram(parsing: text)
    } catch {
      throw UsageError("argument 1 (the diagram \"\(text)\"), \(error)")
    }
    let stages: [PacingStage<String>] = try UsageError.parsingStages(
      stages, durations: .frames, text: { $0 }, naming: { "argument \($0 + 2)" }, help: "pace marble --help")
    guard let pattern else { return diagram.run(stages: stages).description }
    return diagram.run(stages: stages) { pattern.key(in: $0) }.description
  }
}
