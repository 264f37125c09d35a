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
    usage: "pace marble DIAGRAM STAGE...",
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
      """
  )

  @Argument(
    parsing: .allUnrecognized,
    help: ArgumentHelp(
      "The input diagram, then the stages, e.g. 'a-b-c---|' debounce 2 --leading.",
      valueName: "DIAGRAM STAGE"))
  var words: [String] = []

  func run() throws {
    print(try Self.output(for: words.first == "--" ? Array(words.dropFirst()) : words))
  }

  /// The output diagram for the command-line words `DIAGRAM STAGE...`.
  static func output(for words: [String]) throws(UsageError) -> String {
    guard let text = words.first else {
      throw UsageError("missing the diagram: pace marble DIAGRAM STAGE... (see 'pace marble --help')")
    }
    let diagram: MarbleDiagram
    do {
      diagram = try MarbleDiagram(parsing: text)
    } catch {
      throw UsageError("argument 1 (the diagram \"\(text)\"), \(error)")
    }
    let stages = try UsageError.parsingStages(Array(words.dropFirst()), firstArgumentNumber: 2, durations: .frames)
    return diagram.run(stages: stages).description
  }
}
