//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Dispatch
import Foundation

// The hand-rolled debounce and throttle of the article Pace grew from
// (shared/seeds/000): a DispatchWorkItem cancelled and re-created on every
// call, scheduled with asyncAfter. Written as the article writes it, except
// that it schedules on a private serial queue instead of the main queue, which
// a benchmark process does not run.

/// The article's abstract base class.
open class DelayWork {
  public typealias Handler = ((Date) -> Void)

  var workItem: DispatchWorkItem?
  let delay: Int!
  let handler: Handler?
  let queue: DispatchQueue

  public init(milliseconds delay: Int, queue: DispatchQueue, handler: Handler?) {
    self.delay = delay
    self.handler = handler
    self.queue = queue
  }

  open func run() {}
}

/// The article's debounce: cancel the pending work item, schedule a new one.
public final class WorkItemDebounce: DelayWork {
  public override func run() {
    self.workItem?.cancel()

    let workItem = DispatchWorkItem { [weak self] in
      self?.handler?(Date())
    }
    self.workItem = workItem

    queue.asyncAfter(deadline: .now() + .milliseconds(delay), execute: workItem)
  }
}

/// The article's throttle: run at once unless a work item is pending; the work
/// item only clears itself when the delay has passed (leading edge only).
public final class WorkItemThrottle: DelayWork {
  public override func run() {
    if self.workItem == nil {
      handler?(Date())

      let workItem = DispatchWorkItem { [weak self] in
        self?.workItem?.cancel()
        self?.workItem = nil
      }
      self.workItem = workItem

      queue.asyncAfter(deadline: .now() + .milliseconds(delay), execute: workItem)
    }
  }
}
