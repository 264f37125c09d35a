//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Observation
import Pace
import Testing

// The README's paging example, pasted as a user would, with an in-memory
// feed of three pages.

struct Post: Identifiable, Sendable, Equatable {
  let id: Int
}

struct FeedAPI: Sendable {
  struct Response: Sendable {
    var posts: [Post]
    var nextCursor: String?
  }

  func posts(after cursor: String?) async throws -> Response {
    try await Task.sleep(for: .milliseconds(5))
    let start = Int(cursor ?? "0")!
    let posts = (start..<start + 10).map(Post.init)
    return Response(posts: posts, nextCursor: start + 10 < 30 ? String(start + 10) : nil)
  }
}

let feedAPI = FeedAPI()

@MainActor @Observable final class FeedModel {
  let posts = Pager<Post, String> { cursor in  // nil: the first page
    let response = try await feedAPI.posts(after: cursor)
    return Page(items: response.posts, next: response.nextCursor)  // next nil: the last page
  }
}

@MainActor @Suite struct ReadmePagerTests {
  @Test func scrollingToTheEnd_loadsEveryPageOnce_andStops() async {
    let model = FeedModel()
    model.posts.loadNext()  // .task { … }
    await model.posts.waitUntilIdle()
    // Rows appear as the list scrolls; the ones near the end ask for more.
    var shown = 0
    while shown < model.posts.items.count {
      model.posts.loadNextIfNeeded(for: model.posts.items[shown])
      model.posts.loadNextIfNeeded(for: model.posts.items[shown])  // A row that appears twice asks once.
      await model.posts.waitUntilIdle()
      shown += 1
    }
    #expect(model.posts.items.map(\.id) == Array(0..<30))
    #expect(!model.posts.hasMore && !model.posts.isLoading)
    await model.posts.refresh()  // .refreshable { … }
    #expect(model.posts.items.map(\.id) == Array(0..<10))
    #expect(model.posts.hasMore)
  }
}
