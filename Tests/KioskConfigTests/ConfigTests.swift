import Testing
#if canImport(Glibc)
import Glibc
#endif
import Exhibits
@testable import KioskConfig
import Sensors

@Suite struct TOMLParserTests {
    @Test func valuesAndTables() throws {
        let doc = try TOMLParser.parse("""
        # comment
        top = 1
        [display]
        rotation = "90"   # trailing comment
        hex = 0x68
        under = 1_000
        neg = -3
        f = 2.5e1
        yes = true
        lit = 'C:\\path'
        esc = "a\\tb\\u00e9"
        list = [1, 2,
                3, ] # spans lines
        [exhibits."motion-cube"]
        shape_cap = 7
        """)
        #expect(doc.entry("top")?.value == .integer(1))
        #expect(doc.entry("display.rotation") == TOMLEntry(path: ["display", "rotation"], value: .string("90"), line: 4))
        #expect(doc.entry("display.hex")?.value == .integer(0x68))
        #expect(doc.entry("display.under")?.value == .integer(1000))
        #expect(doc.entry("display.neg")?.value == .integer(-3))
        #expect(doc.entry("display.f")?.value == .float(25))
        #expect(doc.entry("display.yes")?.value == .boolean(true))
        #expect(doc.entry("display.lit")?.value == .string("C:\\path"))
        #expect(doc.entry("display.esc")?.value == .string("a\tbé"))
        #expect(doc.entry("display.list")?.value == .array([.integer(1), .integer(2), .integer(3)]))
        #expect(doc.entry("exhibits.motion-cube.shape_cap")?.line == 15)
    }

    @Test func wholeTOMLOneIsRead() throws {
        let doc = try TOMLParser.parse("""
        \u{FEFF}title = \"""
        two
        lines\"""
        bell = "\\b"
        when = 1979-05-27T07:32:00-07:00
        display = { rotation = 90 }
        "exhibits.order" = 1
        [[stand]]
        name = "a"
        [[stand]]
        name = "b"
        """)
        #expect(doc.entry("title")?.value == .string("two\nlines"))
        #expect(doc.entry("bell")?.value == .string("\u{8}"))
        #expect(doc.entry("when")?.value.typeName == "a date or time")
        if case .dateTime(let d)? = doc.entry("when")?.value { #expect(d.description == "1979-05-27T07:32:00-07:00") }
        #expect(doc.entry("display.rotation") == TOMLEntry(path: ["display", "rotation"], value: .integer(90), line: 6))
        // A quoted key with a dot is one key, not a table and a key.
        #expect(doc.entry("\"exhibits.order\"")?.path == ["exhibits.order"])
        #expect(doc.entry("exhibits.order") == nil)
        #expect(doc.entry("stand")?.value == .array([.table([TOMLMember(key: "name", value: .string("a"), line: 9)]),
                                                     .table([TOMLMember(key: "name", value: .string("b"), line: 11)])]))
    }

    @Test(arguments: [
        ("a = \n", 1, "expected value"),
        ("[display\n", 1, "table header"),
        ("x = \"open\n", 1, "control characters"),
        ("\n\nx = 1 2\n", 3, "saw '2'"),
        ("x = 1\nx = 2\n", 2, "cannot redefine existing integer 'x'"),
        ("[a]\n[a]\n", 2, "cannot redefine existing table 'a'"),
        ("x = yes\n", 1, "could not determine value type"),
        ("x = [1, 2\n", 1, "end-of-file"),
        ("= 3\n", 1, "saw '='"),
        // Invalid TOML the hand-written reader once took.
        ("x = --1\n", 1, "saw '-'"),
        ("x = 0x1p6\n", 1, "not supported in TOML 1.0.0"),
        ("x = 060\n", 1, "leading zeroes"),
        ("x = \"a\u{0}b\"\n", 1, "Error while parsing string"),
        ("[a]\nb.c = 1\n[a.b]\n", 3, "cannot redefine existing table 'a.b'"),
        ("x = -9223372036854775809\n", 1, "not representable in 64 bits"),
        ("i2c_bus = --9223372036854775808\n", 1, "saw '-'"),
        ("i2c_bus = -0x-8000000000000000\n", 1, "Error while parsing"),
        ("x = " + String(repeating: "[", count: 100_000) + "\n", 1, "nested"),
    ])
    func syntaxErrorsNameTheLine(text: String, line: Int, fragment: String) {
        do {
            _ = try TOMLParser.parse(text)
            Issue.record("expected an error for \(text.debugDescription)")
        } catch {
            #expect(error.line == line)
            #expect(error.message.contains(fragment), "\(error.message)")
        }
    }
}

@Suite struct KioskConfigurationTests {
    @Test func defaultFileParsesToDefaults() throws {
        let text = KioskConfiguration.defaultFileText
        let parsed = try KioskConfiguration.parse(text, file: "default.toml")
        #expect(parsed == KioskConfiguration())
        // Every key of the schema is documented in the default file.
        for key in ConfigSchema.keys where !key.retired { #expect(text.contains("\n\(key.name) = ")) }
    }

    @Test func settingsApply() throws {
        let c = try KioskConfiguration.parse("""
        [display]
        connector = "DSI-1"
        mode = "800x480@60"
        rotation = 90
        format = "rgb565"
        [sensors]
        source = "i2c"
        i2c_bus = 1
        i2c_address = 0x68
        mount = [[0, 1, 0], [-1, 0, 0], [0, 0, 1]]
        [exhibits]
        order = ["grid-block", "tilt-box"]
        locked = "tilt-box"
        idle_seconds = 45
        [exhibits.motion-cube]
        shape_cap = 12
        [logging]
        level = "debug"
        """, file: "t.toml")
        #expect(c.display.connector == "DSI-1")
        #expect(c.display.mode == .init(width: 800, height: 480, refresh: 60))
        #expect(c.display.rotation == .r90)
        #expect(c.display.format == .rgb565)
        #expect(c.sensors.source == .i2c && c.sensors.i2cBus == 1 && c.sensors.i2cAddress == 0x68)
        #expect(c.sensors.mount == BoardMount("rotate-90"))
        #expect(c.exhibits.order == [GridBlock.exhibitType, TiltBox.exhibitType])
        #expect(c.exhibits.locked == TiltBox.exhibitType)
        #expect(c.exhibits.idleSeconds == 45)
        #expect(c.exhibits.options[MotionCube.exhibitType].integer(MotionCube.shapeCap) == 12)
        #expect(c.exhibits.options[TiltBox.exhibitType].boolean(TiltBox.altitudeGrey) == false)
        #expect(c.logging.level == .debug)
    }

    @Test func escapeLeavesOnlyATerminalRunByDefault() throws {
        // A visitor's keyboard on a stand (the service) cannot end the kiosk; a technician at a
        // shell can. Unless the configuration says otherwise.
        let byDefault = KioskConfiguration().input.escapeLeaves
        #expect(byDefault == .terminal)
        #expect(byDefault.allows(standardInputIsTerminal: true, runningAsService: false))
        #expect(!byDefault.allows(standardInputIsTerminal: true, runningAsService: true))
        #expect(!byDefault.allows(standardInputIsTerminal: false, runningAsService: false))
        let never = try KioskConfiguration.parse("[input]\nescape_leaves = \"never\"\n", file: "t.toml")
        #expect(!never.input.escapeLeaves.allows(standardInputIsTerminal: true, runningAsService: false))
        let always = try KioskConfiguration.parse("[input]\nescape_leaves = \"always\"\n", file: "t.toml")
        #expect(always.input.escapeLeaves.allows(standardInputIsTerminal: false, runningAsService: true))
        #expect {
            _ = try KioskConfiguration.parse("[input]\nescape_leaves = \"termnal\"\n", file: "t.toml")
        } throws: { "\($0)".contains("t.toml:2") && "\($0)".contains("did you mean 'terminal'") }
    }

    @Test func unknownKeySuggestsNearest() {
        do {
            _ = try KioskConfiguration.parse("[display]\nrotaton = \"90\"\n", file: "/etc/motionkiosk/config.toml")
            Issue.record("unknown key accepted")
        } catch {
            #expect(error.errors.count == 1)
            #expect(error.description == "/etc/motionkiosk/config.toml:2: display.rotaton: unknown key; did you mean 'display.rotation'?")
        }
    }

    @Test func unknownTableSuggestsNearest() {
        do {
            _ = try KioskConfiguration.parse("[sensor]\nsource = \"iio\"\n", file: "c.toml")
            Issue.record("unknown table accepted")
        } catch {
            #expect(error.errors.map(\.description) == ["c.toml:1: unknown table [sensor]; did you mean [sensors]?"])
        }
    }

    @Test func everyProblemIsReportedWithLineAndKey() {
        do {
            _ = try KioskConfiguration.parse("""
            [display]
            rotation = "45"
            max_fps = 0
            format = "rgb656"
            [sensors]
            i2c_address = 0x03
            mount = [[0, 0, 0], [0, 1, 0], [0, 0, 1]]
            shake_threshold = "high"
            [exhibits]
            order = ["motion-cube", "tilt-box"]
            locked = "grid-block"
            [logging]
            level = "verbose"
            """, file: "c.toml")
            Issue.record("bad file accepted")
        } catch {
            let lines = error.errors.map(\.description)
            guard lines.count == 8 else { Issue.record("\(lines)"); return }
            #expect(lines[0].hasPrefix("c.toml:2: display.rotation: '45' is not one of auto, 0, 90, 180, 270"))
            #expect(lines[1] == "c.toml:3: display.max_fps: 0 is out of range 1…240")
            #expect(lines[2].hasSuffix("did you mean 'rgb565'?"))
            #expect(lines[3] == "c.toml:6: sensors.i2c_address: 0x03 is a reserved I2C address")
            #expect(lines[4].contains("singular"))
            #expect(lines[5] == "c.toml:8: sensors.shake_threshold: expected a number, found a string")
            #expect(lines[6] == "c.toml:13: logging.level: 'verbose' is not one of debug, info, warning, error")
            #expect(lines[7] == "c.toml:11: exhibits.locked: 'grid-block' is locked but not in exhibits.order")
        }
    }

    @Test func exhibitListChecks() {
        for (text, message) in [("order = [\"motion-cube\", \"motion-cube\"]", "'motion-cube' is listed twice"),
                                 ("order = []", "the launcher needs at least one exhibit"),
                                 ("order = [\"newton\"]", "'newton' is not one of")] {
            do { _ = try KioskConfiguration.parse("[exhibits]\n" + text + "\n", file: "c.toml"); Issue.record("accepted \(text)") } catch {
                #expect(error.errors.count == 1)
                #expect(error.errors.first?.line == 2)
                #expect(error.errors.first?.message.hasPrefix(message) == true, "\(error)")
            }
        }
    }

    @Test func syntaxErrorNamesFile() {
        #expect(throws: ConfigErrors.self) { try KioskConfiguration.parse("[display\n", file: "x.toml") }
        do { _ = try KioskConfiguration.parse("\n[display\n", file: "x.toml") } catch {
            #expect(error.description.hasPrefix("x.toml:2: Error while parsing table header"), "\(error.description)")
            #expect(error.description.hasSuffix("(column 9)"), "\(error.description)")
        }
    }

    @Test func anyTOMLFormOfASettingIsRead() throws {
        let inline = try KioskConfiguration.parse("display = { rotation = 90 }\nexhibits.idle_seconds = 30\n", file: "x.toml")
        #expect(inline.display.rotation == .r90)
        // A quoted key with a dot is one unknown key, spelled as written.
        do { _ = try KioskConfiguration.parse("[display]\n\"rotation.x\" = 90\n", file: "q.toml"); Issue.record("accepted") } catch {
            #expect(error.description.hasPrefix("q.toml:2: display.\"rotation.x\": unknown key"), "\(error.description)")
        }
        // A table where a setting belongs, and an unknown table under an unknown one, once.
        do { _ = try KioskConfiguration.parse("[displey]\n[displey.sub]\n[display]\nrotation = 0\n", file: "t.toml"); Issue.record("accepted") } catch {
            #expect(error.errors.count == 1)
            #expect(error.description == "t.toml:1: unknown table [displey]; did you mean [display]?")
        }
    }

    @Test func aKeyThatDoesNothingSaysSo() throws {
        var warnings: [String] = []
        let c = try KioskConfiguration.parse("[input]\narrow_keys_tilt = true\nmouse_as_finger = false\n", file: "k.toml") { warnings.append($0.description) }
        #expect(warnings == ["k.toml:2: input.arrow_keys_tilt: does nothing: arrow keys tilt only with [sensors] source = \"keys\""])
        #expect(c.input.mouseAsFinger == false)
    }

    @Test func theInstallersScreenIsNoTile() {
        do { _ = try KioskConfiguration.parse("[exhibits]\norder = [\"motion-cube\", \"commissioning\"]\n", file: "o.toml"); Issue.record("accepted") } catch {
            #expect(error.description.hasPrefix("o.toml:2: exhibits.order: 'commissioning' is the installer's screen"), "\(error.description)")
        }
    }

    @Test func aMountThatScalesOrShearsIsAWarningNamingTheSetting() throws {
        var warnings: [String] = []
        _ = try KioskConfiguration.parse("[sensors]\nmount = [[2, 0, 0], [0, 1, 0], [0, 0, 1]]\n", file: "m.toml") { warnings.append($0.description) }
        #expect(warnings.count == 1)
        #expect(warnings.first?.hasPrefix("m.toml:2: sensors.mount: the matrix") == true)
        warnings = []
        _ = try KioskConfiguration.parse("[sensors]\nmount = [[0, 1, 0], [-1, 0, 0], [0, 0, 1]]\n", file: "m.toml") { warnings.append($0.description) }
        #expect(warnings.isEmpty)
    }

    @Test func aMegabyteOfUnknownKeysIsReportedKeyByKey() throws {
        var text = "[display]\n"
        var line = 0
        while text.utf8.count < 1_000_000 { text += "rotatoin_\(line) = 1\n"; line += 1 }
        do { _ = try KioskConfiguration.parse(text, file: "big.toml"); Issue.record("accepted") } catch {
            #expect(error.errors.count == line)
            #expect(error.errors.first?.line == 2)
            #expect(error.errors.first?.message.contains("did you mean 'display.rotation'?") == true)
            #expect(error.errors.last?.message == "unknown key")
        }
    }

    @Test func deeplyNestedArraysAreAnErrorNotAStackOverflow() {
        // ~37 000 '[' overflowed the recursive parser's stack.
        let text = "[sensors]\nmount = " + String(repeating: "[", count: 100_000) + "\n"
        do { _ = try KioskConfiguration.parse(text, file: "deep.toml"); Issue.record("accepted") } catch {
            #expect(error.description.hasPrefix("deep.toml:2: ") && error.description.contains("nested"), "\(error.description)")
        }
        // Nesting within toml++'s limit (256) is still read, and then judged by the schema.
        let fine = "[sensors]\nmount = " + String(repeating: "[", count: 200) + String(repeating: "]", count: 200) + "\n"
        do { _ = try KioskConfiguration.parse(fine, file: "deep.toml") } catch {
            #expect(!error.description.contains("nested") && error.description.contains("mount"))
        }
    }

    @Test func editDistance() {
        #expect(ConfigSchema.editDistance("rotaton", "rotation") == 1)
        #expect(ConfigSchema.editDistance("", "abc") == 3)
        #expect(ConfigSchema.nearest("zzzzzzzz", in: ["rotation", "format"]) == nil)
    }
}

@Suite struct ShippedConfigTests {
    /// The conffile the Debian package installs must be exactly what the schema documents.
    @Test func boardDefaultConfigIsInSync() throws {
        let repo = String(#filePath).split(separator: "/").dropLast(3).joined(separator: "/")
        let path = "/" + repo + "/board/config/config.toml"
        var bytes: [UInt8] = []
        let fd = open(path, O_RDONLY)
        try #require(fd >= 0, "cannot open \(path)")
        defer { close(fd) }
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(fd, &chunk, chunk.count)
            if n <= 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        #expect(String(decoding: bytes, as: UTF8.self) == KioskConfiguration.defaultFileText,
                "regenerate with: swift run motionkiosk default-config > board/config/config.toml")
    }
}

/// What a careless or hostile file puts in front of a technician: values echoed escaped and
/// cut, font paths that would hang the kiosk, a flood of unknown tables, text with controls.
@Suite struct HostileConfigTests {
    @Test func aFIFOAsAFontIsRefusedWithItsLine() throws {
        let fifo = "/tmp/motionkiosk-config-font-fifo-\(getpid())"
        unlink(fifo)
        #expect(mkfifo(fifo, 0o644) == 0)
        defer { unlink(fifo) }
        var errors: [String] = []
        do { _ = try KioskConfiguration.parse("[text]\nfonts = [\"\(fifo)\"]\n", file: "c.toml") } catch { errors = error.errors.map { $0.description } }
        #expect(errors == ["c.toml:2: text.fonts: '\(fifo)' is a FIFO, not a regular file: a font must be a file"])
        // A font not installed yet is not this file's mistake (a fallback may come later).
        _ = try KioskConfiguration.parse("[text]\nfonts = [\"/nonexistent/font.ttf\"]\n", file: "c.toml")
    }

    @Test func valuesAreEchoedEscapedAndCut() throws {
        var errors: [String] = []
        do { _ = try KioskConfiguration.parse("[exhibits]\nlanguages = [\"\\u001B[2J\\u009Bx\"]\n", file: "c.toml") } catch {
            errors = error.errors.map { $0.description }
        }
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix("c.toml:2: exhibits.languages: '\\u{1B}[2J\\u{9B}x' is not a language") == true)
        #expect(errors.allSatisfy { !$0.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B } })
        let long = String(repeating: "x", count: 900_000)
        do { _ = try KioskConfiguration.parse("[display]\nrotation = \"\(long)\"\n", file: "c.toml") } catch {
            errors = error.errors.map { $0.description }
        }
        #expect(errors.count == 1)
        #expect((errors.first?.count ?? .max) < 400, "a 900 kB value is cut")
        #expect(errors.first?.contains("… (900000 characters)") == true)
    }

    @Test func aFloodOfUnknownTablesIsCounted() throws {
        let text = (0..<5000).map { "[t\($0)]\n" }.joined()
        var errors: [ConfigError] = []
        do { _ = try KioskConfiguration.parse(text, file: "c.toml") } catch { errors = error.errors }
        #expect(errors.count == ConfigSchema.listedTables + 1)
        #expect(errors.first?.message.hasPrefix("unknown table [t0]") == true)
        #expect(errors.last?.message == "and 4900 more unknown tables (only the first 100 are listed)")
    }

    @Test func c1ControlsAndSeparatorsInVisitorTextAreRefused() throws {
        for (scalar, what) in [("\\u0085", "a control character (U+0085)"), ("\\u2028", "a line separator (U+2028)"),
                               ("\\u2029", "a paragraph separator (U+2029)"), ("\\u009B", "a control character (U+009B)")] {
            var errors: [String] = []
            do { _ = try KioskConfiguration.parse("[text.en]\n\"motion-cube.title\" = \"Cube\(scalar)magic\"\n", file: "c.toml") } catch {
                errors = error.errors.map { $0.message }
            }
            #expect(errors == ["contains \(what); only \\n, a line break, is allowed"])
        }
        // A line break is still one.
        _ = try KioskConfiguration.parse("[text.en]\n\"motion-cube.title\" = \"Cube\\nmagic\"\n", file: "c.toml")
    }
}
