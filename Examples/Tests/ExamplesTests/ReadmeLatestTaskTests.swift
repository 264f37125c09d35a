//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import Testing

// The README's "Latest request wins" example, pasted as a user would (the
// model renamed so that it can stand beside the owners' example), with a
// fake backend whose first answer arrives last.

struct SearchAPI: Sendable {
  func search(_ query: String) async throws -> [String] {
    // The short query is the slow one: its answer would arrive after the long one's.
    try await Task.sleep(for: query.count < 3 ? .milliseconds(300) : .milliseconds(10))
    return ["\(query) result"]
  }
}

let api = SearchAPI()

@MainActor final class LatestSearchModel {
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

@Suite struct ReadmeLatestTaskTests {
  @MainActor @Test func aSlowStaleAnswer_neverOverwritesTheFreshOne() async {
    let model = LatestSearchModel()
    // Both tasks run on the main actor, in the order they were created.
    let first = Task { await model.queryChanged("sw") }
    let second = Task { await model.queryChanged("swift") }
    await first.value
    await second.value
    #expect(model.results == ["swift result"])
  }
}
