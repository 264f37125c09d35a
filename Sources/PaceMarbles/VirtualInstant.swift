//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
public import PaceStageText

/// An instant of virtual time, counted from the start of a marble run.
///
/// One frame of a marble diagram lasts ``Swift/Duration/frames(_:)```(1)`, which
/// is one virtual second. Virtual time passes only when a runner advances it,
/// so a run is the same every time.
///
///     let start = VirtualInstant.frame(0)
///     start.advanced(by: .frames(3)) == .frame(3)   // true
public struct VirtualInstant: InstantProtocol, Hashable, Sendable, CustomStringConvertible {
  /// The time since the start of the run.
  public var offset: Duration

  /// Creates the instant `offset` after the start of the run.
  public init(offset: Duration) {
    self.offset = offset
  }

  /// The instant at which frame `frame` starts.
  public static func frame(_ frame: Int) -> VirtualInstant {
    VirtualInstant(offset: .frames(frame))
  }

  /// The frame this instant falls in: the first frame that starts at or after it.
  public var frame: Int {
    let (seconds, attoseconds) = offset.components
    return Int(seconds) + (attoseconds > 0 ? 1 : 0)
  }

  public func advanced(by duration: Duration) -> VirtualInstant {
    VirtualInstant(offset: offset + duration)
  }

  public func duration(to other: VirtualInstant) -> Duration {
    other.offset - offset
  }

  public static func < (lhs: VirtualInstant, rhs: VirtualInstant) -> Bool {
    lhs.offset < rhs.offset
  }

  public var description: String {
    let (_, attoseconds) = offset.components
    return attoseconds == 0 ? "frame \(frame)" : "frame \(offset / .frames(1))"
  }
}

extension Duration {
  /// The length of `count` frames of a marble diagram: `count` virtual seconds.
  ///
  ///     try DebounceStateMachine<String, VirtualInstant>(interval: .frames(3))
  public static func frames(_ count: Int) -> Duration {
    .seconds(count)
  }
}

extension PacingDurationFormat {
  /// Whole numbers of marble frames: `3` is ``Swift/Duration/frames(_:)``(3).
  ///
  ///     let stages = try PacingStage<String>.parse(["debounce", "3"], durations: .frames)
  public static let frames = PacingDurationFormat(description: "in frames (a whole number such as 3)") { word in
    guard word.allSatisfy(\.isASCII), let frames = Int(word), frames >= 0 else { return nil }
    return .frames(frames)
  }
}
