//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Dispatch
import OpenCombine
import OpenCombineDispatch

/// OpenCombine's `debounce` on a `PassthroughSubject`, with its Dispatch scheduler.
public final class CombineDebounce {
  private let subject = PassthroughSubject<Int, Never>()
  private var cancellable: AnyCancellable?

  public init(milliseconds: Int, queue: DispatchQueue, handler: @escaping (Int) -> Void) {
    cancellable =
      subject
      .debounce(for: .milliseconds(milliseconds), scheduler: queue.ocombine)
      .sink(receiveValue: handler)
  }

  public func send(_ value: Int) {
    subject.send(value)
  }
}

/// OpenCombine's `throttle(latest: true)` on a `PassthroughSubject`.
public final class CombineThrottle {
  private let subject = PassthroughSubject<Int, Never>()
  private var cancellable: AnyCancellable?

  public init(milliseconds: Int, queue: DispatchQueue, handler: @escaping (Int) -> Void) {
    cancellable =
      subject
      .throttle(for: .milliseconds(milliseconds), scheduler: queue.ocombine, latest: true)
      .sink(receiveValue: handler)
  }

  public func send(_ value: Int) {
    subject.send(value)
  }
}
