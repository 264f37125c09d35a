//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import Synchronization
import Testing

// The README's "Latest request wins" example, pasted as a user would (the
// model renamed so that it can stand beside the owners' example), with a
// fake backend whose first answer arrives last.

struct SearchAPI: Sendable {
  /// Counts the page requests that reached the backend.
  let pageRequests = PageRequests()

  func page(_ number: Int) async throws -> [String] {
    pageRequests.count(number)
    try await Task.sleep(for: .seconds(2))  // Long enough for the second load to join, however busy the machine.
    return ["item \(number)"]
  }

  func search(_ query: String) async throws -> [String] {
    // The short query is the slow one: its answer would arrive after the long one's.
    try await Task.sleep(for: query.count < 3 ? .milliseconds(300) : .milliseconds(10))
    return ["\(query) result"]
  }
}

let api = SearchAPI()

@MainActor final class LatestSearchViewModel {
  var results: [String] = []
  private let searches = LatestTask<[String]>()

  func queryChanged(_ query: String) async {
    do {
      results = try await searches.run { try await api.search(query) }
    } catch {
      // CancellationError: a newer query superseded this one; its results are never shown.
    }
  }
}

final class PageRequests: Sendable {
  private let numbers = Mutex<[Int]>([])
  func count(_ number: Int) { numbers.withLock { $0.append(number) } }
  var all: [Int] { numbers.withLock { $0 } }
}

actor PageLoader {
  private let loads = SingleFlight<Int, [String]>()

  func page(_ number: Int) async throws -> [String] {
    try await loads.run(key: number) { try await api.page(number) }  // one request per page at a time
  }
}

@Suite struct ReadmeLatestTaskTests {
  @Test func twoLoadsOfOnePage_reachTheBackendOnce() async throws {
    let loader = PageLoader()
    async let first = loader.page(2)
    async let second = loader.page(2)
    let pages = try await [first, second]
    #expect(pages == [["item 2"], ["item 2"]])
    #expect(api.pageRequests.all == [2])
  }

  @MainActor @Test func aSlowStaleAnswer_neverOverwritesTheFreshOne() async {
    let model = LatestSearchViewModel()
    // Both tasks run on the main actor, in the order they were created.
    let first = Task { await model.queryChanged("sw") }
    let second = Task { await model.queryChanged("swift") }
    await first.value
    await second.value
    #expect(model.results == ["swift result"])
  }
}
