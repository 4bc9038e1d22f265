import Diagnostics
@testable import Exhibits
import Geometry
import Raster
import Testing
import VisitorText

/// Every string a visitor can read, in every shipped language, on every screen size the
/// issue names: laid out whole (no line wider than its box, no lines below it), at a legible
/// size, inside the screen and off every control but its own.
@Suite struct VisitorTextLayoutTests {
    static let sizes = [(480, 800), (600, 1024), (720, 1280), (800, 1280), (768, 1024), (720, 720), (1080, 1920), (400, 400)]
    static let codes = Language.shipped.map { $0.code }

    struct Problem: CustomStringConvertible {
        let screen: String, text: String, why: String
        var description: String { "\(screen): '\(text)': \(why)" }
    }

    /// The text commands of the app's current frame that break a rule.
    static func problems(in app: KioskApp, screen: String) -> [Problem] {
        let list = app.displayList().commands
        let state = app.state()
        var chrome: [(id: String, frame: Rect)] = []
        if case .object(let pairs) = state, let controls = pairs.first(where: { $0.0 == "controls" })?.1, case .array(let items) = controls {
            for case .object(let c) in items {
                guard case .string(let id)? = c.first(where: { $0.0 == "id" })?.1, id == "home" || id.hasPrefix("language.") else { continue }
                func n(_ k: String) -> Double { if case .number(let v)? = c.first(where: { $0.0 == k })?.1 { v } else { 0 } }
                chrome.append((id, Rect(x: n("x") - n("width") / 2, y: n("y") - n("height") / 2, width: n("width"), height: n("height"))))
            }
        }
        let screenRect = Rect(x: 0, y: 0, width: Double(app.settings.width), height: Double(app.settings.height))
        var found: [Problem] = []
        // The overlap check below is only as good as the controls it found (the attract loop
        // shows no language buttons).
        var attracting = false
        if case .attract = app.screen { attracting = true }
        if app.text.languages.count > 1 && !attracting
            && chrome.filter({ $0.id.hasPrefix("language.") }).count != app.text.languages.count {
            found.append(Problem(screen: screen, text: "", why: "the language buttons are not all in the state"))
        }
        for case .text(let block, let origin, _, _) in list {
            let ink = Rect(x: origin.x + block.inkBounds.minX, y: origin.y + block.inkBounds.minY,
                           width: block.inkBounds.width, height: block.inkBounds.height)
            func report(_ why: String) { found.append(Problem(screen: screen, text: block.text, why: why)) }
            if !block.fits { report("does not fit its box (\(block.width)×\(block.style.maxHeight)) even at \(block.size) px") }
            if block.missingGlyphs > 0 { report("\(block.missingGlyphs) characters no font draws") }
            if block.size < app.legibleTextSize - 0.01 { report("\(block.size) px is below the legible \(app.legibleTextSize) px") }
            if ink.minX < -0.5 || ink.minY < -0.5 || ink.maxX > screenRect.maxX + 0.5 || ink.maxY > screenRect.maxY + 0.5 {
                report("ink \(ink) leaves the screen")
            }
            let inside = Rect(x: ink.minX + 0.5, y: ink.minY + 0.5, width: max(0, ink.width - 1), height: max(0, ink.height - 1))
            let own = chrome.first { c in c.frame.minX <= inside.minX && c.frame.minY <= inside.minY && c.frame.maxX >= inside.maxX && c.frame.maxY >= inside.maxY }
            for c in chrome where own?.id != c.id && c.frame.intersects(inside) { report("ink \(ink) under the control \(c.id)") }
        }
        return found
    }

    static func app(width: Int, height: Int, fonts: FontSet, order: [ExhibitType]? = nil) -> KioskApp {
        var s = KioskApp.Settings()
        s.width = width; s.height = height
        s.languages = codes
        if let order { s.order = order }
        s.attractAfter = 10_000_000
        return KioskApp(settings: s, fonts: fonts, log: Log(minimum: .error))
    }

    @Test(arguments: sizes.map { "\($0.0)x\($0.1)" })
    func everyStringFitsEveryScreen(size: String) throws {
        let parts = size.split(separator: "x").compactMap { Int($0) }
        let (w, h) = (parts[0], parts[1])
        let fonts = try FontSet()
        var problems: [Problem] = []
        var checkedStrings = Set<String>()
        for code in Self.codes {
            // The launcher and every exhibit, the six-language bar on each.
            let app = Self.app(width: w, height: h, fonts: fonts)
            app.selectLanguage(code)
            problems += Self.problems(in: app, screen: "\(size) \(code) launcher")
            for case .text(let b, _, _, _) in app.displayList().commands { checkedStrings.insert(b.text) }
            for exhibit in ExhibitRegistry.tiles {
                let name = exhibit.name
                app.open(exhibit)
                problems += Self.problems(in: app, screen: "\(size) \(code) \(name)")
                for case .text(let b, _, _, _) in app.displayList().commands { checkedStrings.insert(b.text) }
            }
            // The attract loop's banner for each exhibit, in this language.
            for exhibit in ExhibitRegistry.tiles {
                let name = exhibit.name
                let attract = Self.app(width: w, height: h, fonts: fonts, order: [exhibit])
                attract.advance(to: 10_500_000)
                // The attract loop starts in the stand's first language, as a new visitor would;
                // then this language is chosen to check its banner.
                attract.text.select(code)
                if case .attract = attract.screen {} else { Issue.record("\(size): no attract loop for \(name)") }
                problems += Self.problems(in: attract, screen: "\(size) \(code) attract \(name)")
                for case .text(let b, _, _, _) in attract.displayList().commands { checkedStrings.insert(b.text) }
            }
        }
        #expect(problems.isEmpty, "\(problems.count) problems, first: \(problems.prefix(8).map { $0.description }.joined(separator: "\n"))")
        // Every visitor string of every language was on some screen.
        for language in Language.shipped {
            for key in ExhibitRegistry.textKeys {
                let s = TextBook(languages: [language.code]).text(key, in: language)
                #expect(checkedStrings.contains(s), "\(size): '\(s)' (\(language.code) \(key)) was never drawn")
            }
            #expect(checkedStrings.contains(language.autonym))
        }
    }

    /// The launcher keeps every tile's text whole for one tile to eight (columns where one
    /// would make the tiles too short; titles down to the legible size where seven or eight
    /// tiles leave no room for more), in every language, on every screen.
    @Test(arguments: sizes.map { "\($0.0)x\($0.1)" })
    func theLauncherFitsOneToEightTiles(size: String) throws {
        let parts = size.split(separator: "x").compactMap { Int($0) }
        let fonts = try FontSet()
        var problems: [Problem] = []
        for count in 1...8 {
            let order = (0..<count).map { ExhibitRegistry.tiles[$0 % ExhibitRegistry.tiles.count] }
            for code in Self.codes {
                let app = Self.app(width: parts[0], height: parts[1], fonts: fonts, order: order)
                app.selectLanguage(code)
                problems += Self.problems(in: app, screen: "\(size) \(code) \(count) tiles")
            }
        }
        #expect(problems.isEmpty, "\(problems.count) problems, first: \(problems.prefix(8).map { $0.description }.joined(separator: "\n"))")
    }

    /// Seven and eight tiles on a 7-inch 480×800 panel, in French and German (motion-cube's
    /// instruction is the longest): every caption is laid out whole at a legible size and its
    /// ink lies inside the box it is cut to.
    @Test(arguments: [7, 8])
    func sevenOrEightTilesKeepEveryCaptionWholeAt480x800(count: Int) throws {
        let fonts = try FontSet()
        let order = (0..<count).map { ExhibitRegistry.tiles[$0 % ExhibitRegistry.tiles.count] }
        for code in ["fr", "de"] {
            let app = Self.app(width: 480, height: 800, fonts: fonts, order: order)
            app.selectLanguage(code)
            var tiles: [Rect] = []
            if case .array(let controls)? = app.state()["controls"] {
                for case .object(let c) in controls {
                    guard case .string(let id)? = c.first(where: { $0.0 == "id" })?.1, id.hasPrefix("exhibit.") else { continue }
                    func n(_ k: String) -> Double { if case .number(let v)? = c.first(where: { $0.0 == k })?.1 { v } else { 0 } }
                    tiles.append(Rect(x: n("x") - n("width") / 2, y: n("y") - n("height") / 2, width: n("width"), height: n("height")))
                }
            }
            #expect(tiles.count == count)
            var captions = 0
            for case .text(let block, let origin, let clip?, _) in app.displayList().commands
            where tiles.contains(where: { $0.minX <= Double(clip.x) && $0.minY <= Double(clip.y) && $0.maxX >= Double(clip.maxX) && $0.maxY >= Double(clip.maxY) }) {
                captions += 1
                let ink = Rect(x: origin.x + block.inkBounds.minX, y: origin.y + block.inkBounds.minY,
                               width: block.inkBounds.width, height: block.inkBounds.height)
                #expect(block.fits, "\(code): '\(block.text)' cut at \(block.size) px")
                // Within a pixel: a glyph's antialiased fringe (a "T" at the line's start).
                #expect(ink.minX >= Double(clip.x) - 1 && ink.minY >= Double(clip.y) - 1
                        && ink.maxX <= Double(clip.maxX) + 1 && ink.maxY <= Double(clip.maxY) + 1,
                        "\(code): '\(block.text)' ink \(ink) leaves its box \(clip)")
                #expect(block.size >= app.legibleTextSize, "\(code): '\(block.text)' at \(block.size) px")
            }
            #expect(captions == 2 * count, "\(code): a title and an instruction per tile")
            #expect(Self.problems(in: app, screen: "480x800 \(code) \(count) tiles").isEmpty)
        }
    }

    @Test func aSmallHighDensityPanelGetsBiggerTextThatStillFits() throws {
        // 1080×1920 on 5.5 inches: 0.063 mm per pixel, so legible text is 40 px, more than the
        // 480-wide design scaled up (18 × 2.25 = 40.5 for instructions, 24 px labels → 54).
        var s = KioskApp.Settings()
        s.width = 1080; s.height = 1920
        s.millimetresPerPixel = 0.0634
        s.languages = ["de"]
        let app = KioskApp(settings: s, fonts: try FontSet(), log: Log(minimum: .error))
        #expect(app.legibleTextSize == 40)
        #expect(Self.problems(in: app, screen: "1080x1920 5.5-inch").isEmpty)
        let seven = KioskApp.Settings()
        #expect(ExhibitEnvironment.legibleTextSize(width: seven.width, height: seven.height, millimetresPerPixel: nil) == 14)
    }
}
