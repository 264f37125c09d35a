//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// A line of a replayed log: its timestamp, the byte that followed it, and
/// the rest, which is what the stages see (`distinct` compares it, `filter`
/// matches it).
struct ReplayLine: Equatable, Sendable {
  var timestamp: ReplayTimestamp
  /// The space or tab after the timestamp; nil when the line was only a timestamp.
  var separator: UInt8?
  var content: Line

  /// Lines are equal when their contents are: their times differ.
  static func == (left: ReplayLine, right: ReplayLine) -> Bool {
    left.content == right.content
  }
}
