import ARVisSupport
import ARVisWire
import Testing

struct EntityTagTests {
    @Test func aVersionsTagNamesItsNumberAndHashPrefix() throws {
        let tag = EntityTag(version: 12, contentHash: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b")
        #expect(tag.field == "\"12-9f86d081884c7d65\"")
        let version = try #require(tag.version)
        #expect(version.number == 12 && version.hashPrefix == "9f86d081884c7d65")
    }

    @Test(arguments: ["12", "-12-ab", "0-ab", "+3-ab", "3-", "x-ab", "99999999999999999999-ab"])
    func aTagOfAnotherFormNamesNoVersion(_ opaque: String) throws {
        #expect(try #require(EntityTag(opaque)).version == nil)
    }

    @Test func aListIsReadMemberByMember() throws {
        let tags = [
            try #require(EntityTag("1-a")), try #require(EntityTag("2-b", weak: true)), try #require(EntityTag("")),
        ]
        let list = EntityTagList(parsing: " \"1-a\" ,, W/\"2-b\",\t\"\" ")
        #expect(list == .tags(tags))
        #expect(list?.field == "\"1-a\", W/\"2-b\", \"\"")
        #expect(EntityTagList(parsing: " * ") == .any)
        #expect(EntityTagList(parsing: "\t*") == .any)
    }

    @Test func aPercentEncodedFieldIsReadDecoded() {
        #expect(EntityTagList(parsing: "%221-a%22%2C%20W%2F%222-b%22") == EntityTagList(parsing: "\"1-a\", W/\"2-b\""))
        #expect(EntityTagList(parsing: "%2A") == .any)
    }

    @Test(arguments: [
        "", " , ", "1-a", "\"1-a", "\"1-a\" \"2-b\"", "w/\"1-a\"", "\"1 a\"", "\"1-a\"x", "*, \"1-a\"", "* *", "**",
    ])
    func aFieldThatIsNoListIsRefused(_ field: String) {
        #expect(EntityTagList(parsing: field) == nil)
    }

    @Test func weakComparisonIgnoresWeaknessAndStrongComparisonNeedsBothStrong() throws {
        let strong = try #require(EntityTag("1-a"))
        let weak = try #require(EntityTag("1-a", weak: true))
        let list = EntityTagList.tags([weak])
        #expect(list.names(strong, comparison: .weak))
        #expect(!list.names(strong, comparison: .strong))
        #expect(EntityTagList.tags([strong]).names(strong, comparison: .strong))
        #expect(EntityTagList.any.names(weak, comparison: .strong))
    }

    @Test func ifNoneMatchNamesATagInItsList() throws {
        let tag = try #require(EntityTag("2-b"))
        #expect(EntityTagList.names(tag, inIfNoneMatch: "\"1-a\", W/\"2-b\""))
        #expect(!EntityTagList.names(tag, inIfNoneMatch: "\"1-a\""))
        #expect(!EntityTagList.names(tag, inIfNoneMatch: nil))
        #expect(EntityTagList.names(tag, inIfNoneMatch: "*"))
    }
}

struct SpecCursorTests {
    @Test func aLastEventIDReadsBackAsItWasWritten() {
        let cursor = SpecCursor(version: 3, rows: ["sensor": 120, "door": 7])
        #expect(cursor.lastEventID == "version=3&rows=door:7,sensor:120")
        #expect(SpecCursor(lastEventID: cursor.lastEventID) == cursor)
        #expect(SpecCursor(lastEventID: "") == SpecCursor(version: nil))
    }

    @Test func whatDoesNotReadIsLeftOut() {
        let cursor = SpecCursor(lastEventID: "version=three&rows=a:1,b:-2,c,d:x,:4,e:5:6,f:7&junk&=&rows")
        #expect(cursor == SpecCursor(version: nil, rows: ["a": 1, "f": 7]))
    }

    @Test func anOutboxsCursorsNameTheSpecAndEachDataset() {
        let cursor = SpecCursor(cursors: ["spec": 4, "rows:sensor": 9, "other": 1])
        #expect(cursor == SpecCursor(version: 4, rows: ["sensor": 9]))
    }
}
