//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// Numbers the searches of a `SearchModel` from its events, as the backend
/// numbers their requests (1, 2, …, in the order they start), and remembers
/// which were cancelled, so a late answer can be told from a live one.
struct SearchNumbering {
  private(set) var count = 0
  private var open: [(number: Int, query: String)] = []
  private var cancelled: Set<Int> = []

  /// A search for `query` started: its number.
  mutating func started(_ query: String) -> Int {
    count += 1
    open.append((count, query))
    return count
  }

  /// The search for `query` ended (shown, failed, not shown): its number.
  mutating func ended(_ query: String) -> Int? {
    guard let index = open.firstIndex(where: { $0.query == query }) else { return nil }
    return open.remove(at: index).number
  }

  /// The search for `query` was cancelled: its number.
  mutating func cancelled(_ query: String) -> Int? {
    let number = ended(query)
    if let number { cancelled.insert(number) }
    return number
  }

  /// Whether the search numbered `number` was cancelled: its answer is dropped.
  func wasCancelled(_ number: Int) -> Bool {
    cancelled.contains(number)
  }
}
