import Foundation
import Testing

@testable import ARVisSpec

/// What reading costs in memory: large data tables must not cost ~80 bytes per number.
struct TreeFootprintTests {
    @Test func nodesAreTwentyFourBytes() {
        #expect(MemoryLayout<Node>.stride == 24)
        #expect(MemoryLayout<DataValue>.stride <= 24)
    }

    /// Every array of the tree is allocated at its exact size, however it grew while being read.
    @Test(arguments: [0, 1, 7, 1_000, 100_003])
    func arraysHaveNoSlack(count: Int) throws {
        let json = "[[" + (0..<count).map(String.init).joined(separator: ",") + "], [1, [2, 3]], []]"
        let root = try #require(
            Data(json.utf8).withUnsafeBytes { JSONParser.parse($0.bindMemory(to: UInt8.self), maximumDepth: 10).root })
        let outer = try #require(root.elements)
        let numbers = try #require(outer[0].elements)
        #expect(numbers.count == count)
        #expect(numbers.capacity == count)
        #expect(numbers.last?.kind == (count > 0 ? .int(count - 1) : nil))
        #expect(outer[1].elements?[1].elements?.map(\.kind) == [.int(2), .int(3)])
        #expect(outer[2].elements?.isEmpty == true)
    }

    @Test func offsetsSurviveTheCompactStorage() throws {
        let json = "[1, \"a\", {\"k\": null}]"
        let root = try #require(
            Data(json.utf8).withUnsafeBytes { JSONParser.parse($0.bindMemory(to: UInt8.self), maximumDepth: 10).root })
        #expect(root.elements?.map(\.offset) == [1, 4, 9])
        #expect(Node(.null, offset: Node.maximumOffset + 10).offset == Node.maximumOffset)
        #expect(Node(.null).offset == Node.noOffset)
    }
}
