import ARVisSpec
import Foundation
import Testing

/// One hostile or broken input and the exact first problem the reader must report for it (in strict mode,
/// where warnings such as unknown keys are errors too).
struct BadInput: CustomTestStringConvertible, Sendable {
    let name: String
    let text: String
    let line: Int
    let column: Int
    let path: String
    let message: String

    init(_ name: String, _ text: String, _ line: Int, _ column: Int, _ path: String, _ message: String) {
        self.name = name
        self.text = text
        self.line = line
        self.column = column
        self.path = path
        self.message = message
    }

    var testDescription: String { name }
}

struct BadInputTests {
    static let cases: [BadInput] = [
        BadInput(
            "bad_alignment", ##"{"vStack": {"alignment": "top", "elements": []}}"##, 1, 26, ##"vStack.alignment"##,
            ##""top" is not a horizontal alignment"##),
        BadInput(
            "bad_date_pattern",
            ##"{"dataSources": [{"label": "default", "data": {"d": ["2020"], "v": [1]}}], "components": [{"type": "LineMark", "config": {"x": {"field": "d", "type": "date", "dateFormat": "yyyyTHH"}, "y": {"field": "v"}}}]}"##,
            1, 173, ##"components[0].config.x.dateFormat"##,
            ##"invalid date format "yyyyTHH": 'T' is not a date field letter"##),
        BadInput(
            "bad_date_value",
            ##"{"dataSources": [{"label": "default", "data": {"d": ["2020-01-01", "2020-13-01"], "v": [1, 2]}}], "components": [{"type": "LineMark", "config": {"x": {"field": "d", "type": "date", "dateFormat": "yyyy-MM-dd"}, "y": {"field": "v"}}}]}"##,
            1, 196, ##"components[0].config.x.dateFormat"##,
            ##"value "2020-13-01" in row 1 of column "d" does not match the date format "yyyy-MM-dd""##),
        BadInput(
            "bad_escape", ##"{"text": {"content": "a\qb"}}"##, 1, 24, ##"text.content"##,
            ##"invalid escape '\q' in a string"##),
        BadInput(
            "bad_hex_color", ##"{"text": {"content": "a", "fontStyle": {"size": 12, "color": "#12345"}}}"##, 1, 62,
            ##"text.fontStyle.color"##, ##""#12345" is not a hex colour"##),
        BadInput(
            "bad_mark", ##"{"dataSources": [], "components": [{"type": "BarMarks", "config": {}}]}"##, 1, 45,
            ##"components[0].type"##, ##""BarMarks" is not a mark type"##),
        BadInput(
            "bad_modifier", ##"{"text": {"content": "a", "modifiers": [{"paddng": {"top": 1}}]}}"##, 1, 42,
            ##"text.modifiers[0]"##, ##"unknown modifier "paddng""##),
        BadInput(
            "bad_named_color", ##"{"text": {"content": "a", "fontStyle": {"size": 12, "color": "purpel"}}}"##, 1, 62,
            ##"text.fontStyle.color"##, ##""purpel" is not a colour"##),
        BadInput(
            "bad_vector",
            ##"{"imageTrackingConfigurations": [{"imageURL": "a.png", "relationships": [{"widgetConfiguration": {"component": {"spacer": {}}, "relativeAnchorPoint": "top", "relativePosition": [0, 0]}}]}]}"##,
            1, 178, ##"imageTrackingConfigurations[0].relationships[0].widgetConfiguration.relativePosition"##,
            ##"expected 3 numbers [x, y, z], found 2 elements"##),
        BadInput(
            "bad_version", ##"{"version": "2.0", "imageTrackingConfigurations": []}"##, 1, 13, ##"version"##,
            ##"this reader understands spec version 1.x, not 2.0"##),
        BadInput(
            "bad_weight", ##"{"text": {"content": "a", "fontStyle": {"size": 12, "weight": "bolder"}}}"##, 1, 63,
            ##"text.fontStyle.weight"##, ##""bolder" is not a font weight"##),
        BadInput(
            "comment", ##"{"text": {"content": "a"} // note\##("\n")}"##, 1, 27, ##""##,
            ##"comments are not allowed in JSON"##),
        BadInput(
            "control_char", ##"{"text": {"content": "a\##("\t")b"}}"##, 1, 24, ##"text.content"##,
            ##"raw control character U+0009 in a string"##),
        BadInput(
            "dangling_datakey",
            ##"{"dataSources": [{"label": "sales", "data": {"x": [1], "y": [2]}}], "components": [{"type": "BarMark", "config": {"dataKey": "sale", "x": {"field": "x"}, "y": {"field": "y"}}}]}"##,
            1, 126, ##"components[0].config.dataKey"##, ##"dataKey "sale" names no data source"##),
        BadInput(
            "divider_opacity", ##"{"divider": {"opacity": 1.5}}"##, 1, 25, ##"divider.opacity"##,
            ##"an opacity must be between 0 and 1, found 1.5"##),
        BadInput(
            "domain_one_value", ##"{"dataSources": [], "components": [], "chartXScale": {"domain": [1]}}"##, 1, 65,
            ##"chartXScale.domain"##, ##"a domain needs at least two values, found 1"##),
        BadInput(
            "duplicate_key", ##"{"text": {"content": "a", "content": "b"}}"##, 1, 27, ##"text.content"##,
            ##"duplicate key "content""##),
        BadInput("empty", ##""##, 1, 1, ##""##, ##"the document is empty"##),
        BadInput("empty_component", ##"{}"##, 1, 1, ##""##, ##"cannot tell the document kind from its keys (none)"##),
        BadInput(
            "extra_text", ##"{"spacer": {}} {"spacer": {}}"##, 1, 16, ##""##,
            ##"unexpected '{' after the end of the document"##),
        BadInput(
            "hex_without_hash", ##"{"text": {"content": "a", "fontStyle": {"size": 12, "color": "FF0000"}}}"##, 1, 62,
            ##"text.fontStyle.color"##, ##""FF0000" is not a colour"##),
        BadInput(
            "huge_number", ##"{"divider": {"opacity": 1e400}}"##, 1, 25, ##"divider.opacity"##,
            ##"the number 1e400 is out of range"##),
        BadInput(
            "image_url_scheme", ##"{"image": {"url": "ftp://x/y.png"}}"##, 1, 19, ##"image.url"##,
            ##"the URL scheme "ftp" cannot name a file to load"##),
        BadInput(
            "image_url_space", ##"{"image": {"url": "my image.png"}}"##, 1, 19, ##"image.url"##,
            ##"the URL "my image.png" contains white space at character 3"##),
        BadInput(
            "leading_zero", ##"{"divider": {"opacity": 01}}"##, 1, 25, ##"divider.opacity"##,
            ##"numbers cannot have leading zeros"##),
        BadInput(
            "lone_surrogate", ##"{"text": {"content": "\ud800"}}"##, 1, 23, ##"text.content"##,
            ##"a \u escape encodes half of a UTF-16 surrogate pair"##),
        BadInput(
            "missing_channel",
            ##"{"dataSources": [{"label": "default", "data": {"a": [1]}}], "components": [{"type": "PointMark", "config": {"x": {"field": "a"}}}]}"##,
            1, 108, ##"components[0].config"##, ##"a PointMark needs the channels x, y; y missing"##),
        BadInput(
            "missing_comma", ##"{"text": {"content": "a" "fontStyle": {}}}"##, 1, 26, ##"text"##,
            ##"expected ',' or '}' after the value of "content", found '"'"##),
        BadInput(
            "missing_content", ##"{"text": {"fontStyle": {"size": 12}}}"##, 1, 10, ##"text"##,
            ##"missing required key "content""##),
        BadInput(
            "misspelled_component", ##"{"vstack": {"elements": []}}"##, 1, 1, ##""##,
            ##"cannot tell the document kind from its keys ("vstack")"##),
        BadInput(
            "misspelled_key_missing", ##"{"text": {"contnet": "hi"}}"##, 1, 11, ##"text"##, ##"unknown key "contnet""##),
        BadInput(
            "nan", ##"{"divider": {"opacity": NaN}}"##, 1, 25, ##"divider.opacity"##,
            ##"NaN and Infinity are not JSON numbers"##),
        BadInput(
            "negative_font", ##"{"text": {"content": "a", "fontStyle": {"size": -3}}}"##, 1, 49,
            ##"text.fontStyle.size"##, ##"a font size must be greater than 0, found -3"##),
        BadInput(
            "not_object", ##"[1, 2]"##, 1, 1, ##""##,
            ##"expected a spec object (an environment, a component or a chart), found an array"##),
        BadInput(
            "object_anchor_on_image",
            ##"{"imageTrackingConfigurations": [{"imageURL": "a.png", "relationships": [{"widgetConfiguration": {"component": {"spacer": {}}, "relativeAnchorPoint": "top1", "relativePosition": [0, 0, 0]}}]}]}"##,
            1, 151, ##"imageTrackingConfigurations[0].relationships[0].widgetConfiguration.relativeAnchorPoint"##,
            ##"the anchor point "top1" names a face of an object's bounding box; this widget is attached to an image target"##
        ),
        BadInput(
            "ontap_relative",
            ##"{"text": {"content": "a", "modifiers": [{"onTap": {"action": {"openURL": {"url": "page.html"}}}}]}}"##,
            1, 82, ##"text.modifiers[0].onTap.action.openURL.url"##, ##""page.html" is not an absolute URL"##),
        BadInput(
            "rgba_out_of_range",
            ##"{"text": {"content": "a", "fontStyle": {"size": 12, "color": {"rgba": {"r": 2, "g": 0, "b": 0}}}}}"##, 1,
            77, ##"text.fontStyle.color.rgba.r"##, ##"a colour component must be between 0 and 1, found 2"##),
        BadInput(
            "single_quotes", ##"{'text': {}}"##, 1, 2, ##""##, ##"keys must be in double quotes, found a single quote"##
        ),
        BadInput(
            "spacer_not_object", ##"{"vStack": {"elements": [{"spacer": null}]}}"##, 1, 37,
            ##"vStack.elements[0].spacer"##, ##"expected an empty object {}, found null"##),
        BadInput(
            "tooltip_field",
            ##"{"dataSources": [{"label": "default", "data": {"Name": ["a"], "x": [1]}}], "components": [{"type": "PointMark", "config": {"x": {"field": "x"}, "y": {"field": "x"}}, "interactions": [{"type": "Hover", "tooltip": {"type": "Manual", "config": [{"field": "name", "value": "a", "content": {"spacer": {}}}]}}]}]}"##,
            1, 253, ##"components[0].interactions[0].tooltip.config[0].field"##,
            ##"the field "name" is not a column of the data"##),
        BadInput(
            "truncated_object", ##"{"vStack": {"elements": ["##, 1, 26, ##"vStack.elements"##,
            ##"unexpected end of file"##),
        BadInput(
            "truncated_string", ##"{"text": {"content": "abc"##, 1, 22, ##"text.content"##, ##"unterminated string"##),
        BadInput(
            "two_keys", ##"{"text": {"content": "a"}, "image": {"url": "x.png"}}"##, 1, 1, ##""##,
            ##"a component has exactly one key naming its kind, found 2: "text", "image""##),
        BadInput(
            "unknown_anchor_ref",
            ##"{"placements": [{"model": "tree.usdz", "anchor": "plaza", "position": [0, 0, 0]}], "worldAnchors": [{"id": "plazza", "position": [0, 0, 0]}]}"##,
            1, 50, ##"placements[0].anchor"##, ##"no world or geo anchor has the id "plaza""##),
        BadInput(
            "unknown_column",
            ##"{"dataSources": [{"label": "default", "data": {"Year": [1], "Value": [2]}}], "components": [{"type": "LineMark", "config": {"x": {"field": "Year"}, "y": {"field": "value"}}}]}"##,
            1, 164, ##"components[0].config.y.field"##, ##"the field "value" is not a column of the data"##),
        BadInput(
            "unknown_key", ##"{"text": {"content": "hi", "colour": "red"}}"##, 1, 28, ##"text"##,
            ##"unknown key "colour""##),
        BadInput(
            "unknown_kind", ##"{"foo": 1}"##, 1, 1, ##""##, ##"cannot tell the document kind from its keys ("foo")"##),
        BadInput("whitespace_only", ##"  \##("\n")  "##, 1, 1, ##""##, ##"the document is empty"##),
        BadInput(
            "wrong_type_content", ##"{"text": {"content": 5}}"##, 1, 22, ##"text.content"##,
            ##"expected a string, found a number"##),
        BadInput(
            "zero_size",
            ##"{"imageTrackingConfigurations": [{"imageURL": "a.png", "relationships": [{"widgetConfiguration": {"component": {"spacer": {}}, "relativeAnchorPoint": "top", "relativePosition": [0, 0, 0], "size": [0, 100]}}]}]}"##,
            1, 197, ##"imageTrackingConfigurations[0].relationships[0].widgetConfiguration.size"##,
            ##"a size must have a positive width and height, found [0, 100]"##),
    ]

    @Test(arguments: cases)
    func reportsExactlyLocatedError(_ input: BadInput) throws {
        let result = SpecReader.read(json: Data(input.text.utf8), file: "bad.json", options: ReadOptions(strict: true))
        #expect(result.document == nil)
        let error = try #require(result.diagnostics.first { $0.severity == .error })
        #expect(error.location == SourceLocation(file: "bad.json", line: input.line, column: input.column))
        #expect(error.path == input.path)
        #expect(error.message == input.message)
    }

    @Test func tableHasAtLeastFortyCases() {
        #expect(Self.cases.count >= 40)
    }

    @Test func unknownKeysAreWarningsUnlessStrict() throws {
        let text = Data(#"{"text": {"content": "hi", "colour": "red"}}"#.utf8)
        let lenient = SpecReader.read(json: text)
        #expect(lenient.document != nil)
        #expect(lenient.diagnostics.map(\.severity) == [.warning])
        #expect(SpecReader.read(json: text, options: ReadOptions(strict: true)).document == nil)
    }

    @Test func invalidUTF8IsLocatedAtTheBadByte() throws {
        let bytes = Data(#"{"text": {"content": "caf"#.utf8) + Data([0xE9]) + Data(#""}}"#.utf8)
        let error = try #require(SpecReader.read(json: bytes).diagnostics.first)
        #expect(error.code == .encoding)
        #expect(error.location.line == 1 && error.location.column == 26)
        #expect(error.message == "invalid UTF-8 byte 0xE9 in a string")
    }

    @Test func utf16IsRefusedWithAHint() throws {
        let bytes = Data([0xFF, 0xFE]) + Data(#"{"spacer": {}}"#.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        let error = try #require(SpecReader.read(json: bytes).diagnostics.first)
        #expect(error.message == "the file is UTF-16, not UTF-8")
        #expect(error.hint == "save it as UTF-8")
    }

    @Test func hundredThousandDeepNestingStopsAtTheDepthLimit() throws {
        let depth = 100_000
        let text =
            String(repeating: #"{"vStack": {"elements": ["#, count: depth) + String(repeating: "]}}", count: depth)
        let result = SpecReader.read(json: Data(text.utf8))
        let error = try #require(result.diagnostics.first)
        #expect(error.code == .depthLimit)
        #expect(error.message == "values are nested more than 256 levels deep")
    }

    @Test func depthLimitIsConfigurable() throws {
        let text = String(repeating: "[", count: 10) + String(repeating: "]", count: 10)
        let shallow = SpecReader.read(json: Data(text.utf8), options: ReadOptions(maximumDepth: 5))
        #expect(shallow.diagnostics.first?.message == "values are nested more than 5 levels deep")
        let deep = SpecReader.read(json: Data(text.utf8), options: ReadOptions(maximumDepth: 20))
        #expect(deep.diagnostics.first?.code == .typeMismatch)
    }

    @Test func fiveMegabyteStringLoads() throws {
        let content = String(repeating: "abcdefghij", count: 500_000)
        let text = #"{"text": {"content": ""# + content + #""}}"#
        let document = try SpecReader.decode(Data(text.utf8))
        guard case .component(.text(let value)) = document else {
            Issue.record("not a text component")
            return
        }
        #expect(value.content.utf8.count == 5_000_000)
    }

    @Test func everyProblemIsReportedInOnePass() {
        let text =
            #"{"vStack": {"alignment": "top", "spacing": -1, "elements": [{"text": {"content": 1}}, {"image": {}}]}}"#
        let errors = SpecReader.read(json: Data(text.utf8)).diagnostics.filter { $0.severity == .error }
        #expect(
            errors.map(\.path) == [
                "vStack.elements[0].text.content", "vStack.elements[1].image", "vStack.alignment", "vStack.spacing",
            ])
    }
}
