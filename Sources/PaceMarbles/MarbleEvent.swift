//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

public import Pace

/// One event of a marble diagram: a value, the finish `|` or the failure `^`.
/// It is the package's one event vocabulary, `PacingEvent`, on strings.
public typealias MarbleEvent = PacingEvent<String>

extension PacingEvent where Value == String {
  /// The event as it is written in a diagram: `a`, `'foo'`, `|` or `^`.
  ///
  ///     MarbleEvent.value("foo").notation  // "'foo'"
  public var notation: String {
    switch self {
    case .finish: return "|"
    case .failure: return "^"
    case .value(let value):
      if value.count == 1, let character = value.first, !MarbleSyntax.isReserved(character) { return value }
      return "'\(value)'"
    }
  }
}

/// The characters that mean something in a diagram.
enum MarbleSyntax {
  static let idle: Character = "-"
  static let finish: Character = "|"
  static let failure: Character = "^"
  static let groupOpen: Character = "["
  static let groupClose: Character = "]"
  static let quote: Character = "'"
  static let space: Character = " "

  static func isReserved(_ character: Character) -> Bool {
    switch character {
    case idle, finish, failure, groupOpen, groupClose, quote, space: true
    default: character.isWhitespace
    }
  }
}
