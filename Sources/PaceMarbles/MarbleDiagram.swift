//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace

/// A marble diagram: events placed on numbered frames.
///
/// The notation is the package's timing contract (the Timing Contract article of `Pace`):
///
/// | symbol | meaning |
/// |---|---|
/// | `-` | one frame with no event |
/// | any other character | a value at this frame |
/// | `'…'` | a value of several characters at one frame |
/// | `[…]` | several events at the same frame, in order |
/// | `\|` | the finish |
/// | `^` | the failure |
/// | space | nothing at all; aligns diagrams |
///
///     let diagram = try MarbleDiagram(parsing: "ab-'foo'[c|]")
///     diagram.entries.map(\.frame)   // [0, 1, 3, 4, 4]
///     diagram.description            // "ab-'foo'[c|]"
public struct MarbleDiagram: Hashable, Sendable, CustomStringConvertible {
  /// An event at a frame.
  public struct Entry: Hashable, Sendable {
    /// The frame of the event, counted from 0.
    public var frame: Int
    /// The event.
    public var event: MarbleEvent

    /// Creates an entry for `event` at `frame`.
    public init(frame: Int, event: MarbleEvent) {
      self.frame = frame
      self.event = event
    }
  }

  /// The events in the order they happen; events of one frame keep their order.
  public var entries: [Entry]

  /// Creates a diagram from entries, ordering them by frame (stably).
  public init(entries: [Entry]) {
    self.entries = entries.enumerated()
      .sorted { ($0.element.frame, $0.offset) < ($1.element.frame, $1.offset) }
      .map(\.element)
  }

  /// Parses a diagram.
  ///
  /// - Throws: ``MarbleParseError`` naming the column of the first problem: an
  ///   unclosed group or quote, a nested or empty group, `-` inside a group, an
  ///   empty quoted value, a stray `]`, or an event after the finish or failure.
  public init(parsing text: String) throws(MarbleParseError) {
    var parser = MarbleParser(text)
    entries = try parser.parse()
  }

  /// The frame of the last event, or `nil` for a diagram with no events.
  public var lastFrame: Int? { entries.last?.frame }

  /// The events at `frame`, in order.
  public func events(at frame: Int) -> [MarbleEvent] {
    entries.filter { $0.frame == frame }.map(\.event)
  }

  /// The diagram in the notation, ending at its last event (no trailing `-`);
  /// an empty string when it has no events.
  public var description: String {
    tokens().joined()
  }

  /// Renders diagrams one above the other, each frame padded with spaces to the
  /// same width in all of them, so that the same frame stands in the same column.
  ///
  ///     MarbleDiagram.aligned([try .init(parsing: "a[bc]d"), try .init(parsing: "-x")])
  ///     // ["a[bc]d", "- x"]
  public static func aligned(_ diagrams: [MarbleDiagram]) -> [String] {
    let tokens = diagrams.map { $0.tokens() }
    let frames = tokens.map(\.count).max() ?? 0
    var lines = Array(repeating: "", count: diagrams.count)
    for frame in 0..<frames {
      let width = tokens.map { frame < $0.count ? $0[frame].count : 0 }.max() ?? 0
      for row in tokens.indices where frame < tokens[row].count {
        let token = tokens[row][frame]
        let isLast = frame == tokens[row].count - 1
        lines[row] += isLast ? token : token + String(repeating: " ", count: width - token.count)
      }
    }
    return lines
  }

  /// One token per frame from 0 to the last event.
  private func tokens() -> [String] {
    guard let lastFrame else { return [] }
    var tokens = Array(repeating: String(MarbleSyntax.idle), count: lastFrame + 1)
    var index = entries.startIndex
    while index < entries.endIndex {
      let frame = entries[index].frame
      var end = index
      while end < entries.endIndex, entries[end].frame == frame { end += 1 }
      let group = entries[index..<end].map(\.event.notation)
      tokens[frame] = group.count == 1 ? group[0] : "[" + group.joined() + "]"
      index = end
    }
    return tokens
  }
}
