//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace

/// Walks a run frame by frame: the next frame is the earlier of the next input
/// and the next timer, and every frame is visited at most once.
///
/// The three runners (policies, closure pacers, sequences) share it, so they
/// cannot disagree on which frames they visit.
struct MarbleFrameWalk {
  private let entries: [MarbleDiagram.Entry]
  private var index: Int
  private var lastFrame = -1

  init(_ diagram: MarbleDiagram) {
    entries = diagram.entries
    index = entries.startIndex
  }

  /// The next frame to run, given the frame of the earliest pending timer, or
  /// `nil` when no input and no timer remain. A timer due in a frame already
  /// run wakes the next frame.
  mutating func nextFrame(timer: Int?) -> Int? {
    let nextInput = index < entries.endIndex ? entries[index].frame : nil
    let nextTimer = timer.map { max($0, lastFrame + 1) }
    guard let frame = [nextInput, nextTimer].compactMap({ $0 }).min() else { return nil }
    lastFrame = frame
    return frame
  }

  /// Takes the input events of `frame`, in order.
  mutating func takeEvents(at frame: Int) -> [MarbleEvent] {
    var events: [MarbleEvent] = []
    while index < entries.endIndex, entries[index].frame == frame {
      events.append(entries[index].event)
      index += 1
    }
    return events
  }
}
