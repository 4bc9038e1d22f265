import Testing
@testable import Exhibits

@Suite struct JSONValueTests {
    @Test func keepsKeyOrderAndFormatsNumbers() {
        let v = JSONValue.object([
            ("exhibit", .string("grid-block")), ("time_ms", .int(1500)),
            ("x", .number(240.0)), ("y", .number(12.34567)), ("r", .number(-0.0001)),
            ("ok", .bool(true)), ("direction", .null), ("items", .array([.int(1), .number(0.5)])),
        ])
        #expect(v.serialized() == #"{"exhibit":"grid-block","time_ms":1500,"x":240,"y":12.346,"r":0,"ok":true,"direction":null,"items":[1,0.5]}"#)
        #expect(v["time_ms"] == .int(1500))
    }

    @Test func escapesStrings() {
        #expect(JSONValue.string("a\"b\\c\nd\u{01}é").serialized() == #""a\"b\\c\nd\u0001é""#)
    }

    @Test func nonFiniteBecomesNull() {
        #expect(JSONValue.number(.nan).serialized() == "null")
        #expect(JSONValue.number(.infinity).serialized() == "null")
    }
}
