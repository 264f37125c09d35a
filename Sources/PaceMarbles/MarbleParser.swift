//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace

/// Reads the notation of ``MarbleDiagram`` character by character.
struct MarbleParser {
  private let characters: [Character]
  private var position = 0
  private var frame = 0
  private var entries: [MarbleDiagram.Entry] = []
  /// The column of the finish or failure, once one was read.
  private var terminationColumn: Int?

  init(_ text: String) {
    characters = Array(text)
  }

  /// The 1-based column of the character at `index`.
  private func column(_ index: Int) -> Int { index + 1 }

  mutating func parse() throws(MarbleParseError) -> [MarbleDiagram.Entry] {
    while position < characters.count {
      let character = characters[position]
      switch character {
      case _ where character.isWhitespace:
        position += 1
      case MarbleSyntax.idle:
        position += 1
        frame += 1
      case MarbleSyntax.groupOpen:
        try parseGroup()
        frame += 1
      case MarbleSyntax.groupClose:
        throw MarbleParseError(column: column(position), reason: "']' closes no group")
      default:
        let start = position
        let event = try parseEvent()
        try add(event, column: column(start))
        frame += 1
      }
    }
    return entries
  }

  /// `[` … `]`: one or more events at one frame.
  private mutating func parseGroup() throws(MarbleParseError) {
    let open = position
    position += 1
    var count = 0
    while true {
      guard position < characters.count else {
        throw MarbleParseError(column: column(open), reason: "group '[' is never closed with ']'")
      }
      switch characters[position] {
      case MarbleSyntax.groupClose:
        guard count > 0 else { throw MarbleParseError(column: column(open), reason: "empty group '[]'") }
        position += 1
        return
      case let character where character.isWhitespace:
        position += 1
      case MarbleSyntax.groupOpen:
        throw MarbleParseError(column: column(position), reason: "groups cannot be nested")
      case MarbleSyntax.idle:
        throw MarbleParseError(
          column: column(position), reason: "'-' inside a group: a group is one frame, write events only")
      default:
        let start = position
        let event = try parseEvent()
        try add(event, column: column(start))
        count += 1
      }
    }
  }

  /// A value, a quoted value, `|` or `^`, at `position`.
  private mutating func parseEvent() throws(MarbleParseError) -> MarbleEvent {
    let character = characters[position]
    switch character {
    case MarbleSyntax.finish:
      position += 1
      return .finish
    case MarbleSyntax.failure:
      position += 1
      return .failure
    case MarbleSyntax.quote:
      let open = position
      guard let close = characters[(open + 1)...].firstIndex(of: MarbleSyntax.quote) else {
        throw MarbleParseError(column: column(open), reason: "quote ' is never closed")
      }
      guard close > open + 1 else { throw MarbleParseError(column: column(open), reason: "empty value ''") }
      position = close + 1
      return .value(String(characters[(open + 1)..<close]))
    default:
      position += 1
      return .value(String(character))
    }
  }

  private mutating func add(_ event: MarbleEvent, column: Int) throws(MarbleParseError) {
    if let terminationColumn {
      throw MarbleParseError(
        column: column, reason: "'\(event.notation)' after the end of the sequence at column \(terminationColumn)")
    }
    if event.isTerminal { terminationColumn = column }
    entries.append(MarbleDiagram.Entry(frame: frame, event: event))
  }
}
