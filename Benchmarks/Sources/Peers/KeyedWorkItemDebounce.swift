//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Dispatch

/// The article's debounce (shared/seeds/000) per key, as its readers extend
/// it when they need one per document or user: a dictionary of work items;
/// each call cancels the key's pending item, makes a new one, and schedules
/// it with asyncAfter. Like the article's, it is meant to be called from one
/// thread (the main thread there); the items run on `queue`.
public final class KeyedWorkItemDebounce<Key: Hashable> {
  var workItems: [Key: DispatchWorkItem] = [:]
  let delay: Int
  let queue: DispatchQueue
  let handler: (Key, Int) -> Void

  public init(milliseconds delay: Int, queue: DispatchQueue, handler: @escaping (Key, Int) -> Void) {
    self.delay = delay
    self.queue = queue
    self.handler = handler
  }

  public func run(_ value: Int, for key: Key) {
    workItems[key]?.cancel()

    let handler = self.handler
    let workItem = DispatchWorkItem {
      handler(key, value)
    }
    workItems[key] = workItem

    queue.asyncAfter(deadline: .now() + .milliseconds(delay), execute: workItem)
  }

  /// The keys with a work item, run or not: the pattern never removes one.
  public var count: Int { workItems.count }
}
