import Diagnostics
@testable import Exhibits
import Geometry
import Raster
import Testing
import VisitorText

/// Visitor text that the configuration accepts but that cannot fit (one 400-letter word, long
/// words, a letter under 399 accents) stays inside its box: broken inside words with a hyphen,
/// cut at the box's edge, never over a neighbouring tile, off the screen or over a control.
@Suite struct TextClipTests {
    let fonts = try! FontSet()
    static let longWord = String(repeating: "Donaudampfschiff", count: 25)   // 400 letters
    static let accented = "A" + String(repeating: "\u{0301}", count: 399)
    static let longWords = "Donaudampfschifffahrtsgesellschaftskapitänsmützenabzeichen Rindfleischetikettierungsüberwachungsaufgabenübertragungsgesetz"

    /// The museum's wording for every string that `keys` name, in English.
    func app(_ wording: [String: String], width: Int = 480, height: Int = 800) -> KioskApp {
        var s = KioskApp.Settings()
        s.width = width; s.height = height
        s.languages = ["en", "de"]
        s.textOverrides = ["en": wording]
        return KioskApp(settings: s, fonts: fonts, log: Log(minimum: .error))
    }

    /// Draws the app's frame twice, with and without its text: the pixels outside every text
    /// box must be the same (the text changed nothing there). Returns the text commands and
    /// how many pixels outside their boxes the text changed.
    func pixelsChangedOutsideTextBoxes(_ app: KioskApp) -> (texts: [(block: TextBlock, clip: PixelRect?)], changed: Int) {
        let list = app.displayList()
        let withText = SceneRenderer(canvas: Canvas(width: app.settings.width, height: app.settings.height), fonts: fonts)
        let without = SceneRenderer(canvas: Canvas(width: app.settings.width, height: app.settings.height), fonts: fonts)
        withText.render(background: list.background, commands: list.commands)
        var texts: [(TextBlock, PixelRect?)] = []
        var others: [DrawCommand] = []
        for c in list.commands {
            if case .text(let block, _, let clip, _) = c { texts.append((block, clip)) } else { others.append(c) }
        }
        without.render(background: list.background, commands: others)
        var changed = 0
        for y in 0..<app.settings.height {
            for x in 0..<app.settings.width where withText.canvas.pixel(x: x, y: y) != without.canvas.pixel(x: x, y: y) {
                if !texts.contains(where: { $0.1?.contains(x: x, y: y) ?? false }) { changed += 1 }
            }
        }
        return (texts, changed)
    }

    /// The control frames in the app's state, by id.
    static func controls(_ app: KioskApp) -> [String: Rect] {
        var found: [String: Rect] = [:]
        guard case .object(let pairs) = app.state(), let controls = pairs.first(where: { $0.0 == "controls" })?.1,
              case .array(let items) = controls else { return found }
        for case .object(let c) in items {
            guard case .string(let id)? = c.first(where: { $0.0 == "id" })?.1 else { continue }
            func n(_ k: String) -> Double { if case .number(let v)? = c.first(where: { $0.0 == k })?.1 { v } else { 0 } }
            found[id] = Rect(x: n("x") - n("width") / 2, y: n("y") - n("height") / 2, width: n("width"), height: n("height"))
        }
        return found
    }

    static func inside(_ clip: PixelRect, _ r: Rect) -> Bool {
        Double(clip.x) >= r.minX - 0.5 && Double(clip.y) >= r.minY - 0.5
            && Double(clip.maxX) <= r.maxX + 0.5 && Double(clip.maxY) <= r.maxY + 0.5
    }

    @Test func aWordWiderThanItsBoxIsBrokenWithHyphensAndNoLineLeavesTheBox() {
        let typesetter = fonts.typesetter
        let hyphen = typesetter.layout("-", TextStyle(size: 18)).glyphs[0].glyph
        let block = typesetter.layout(Self.longWord, TextStyle(size: 18, maxWidth: 200, maxHeight: 60, minimumSize: 14))
        #expect(!block.fits && block.size == 14)
        #expect(block.lineCount > 5)
        #expect(block.inkBounds.maxX <= 200.5 && block.inkBounds.minX >= -0.5, "\(block.inkBounds)")
        // Every line but the last ends in a hyphen; no hyphen anywhere else.
        var lastOfLine: [UInt32] = []
        for (i, g) in block.glyphs.enumerated() where i + 1 == block.glyphs.count || block.glyphs[i + 1].baseline != g.baseline {
            lastOfLine.append(g.glyph)
        }
        #expect(lastOfLine.count == block.lineCount)
        #expect(lastOfLine.dropLast().allSatisfy { $0 == hyphen })
        #expect(block.glyphs.filter { $0.glyph == hyphen }.count == block.lineCount - 1)
        // Right to left and CJK words break without a hyphen.
        let arabic = typesetter.layout(String(repeating: "مرحبا", count: 40), TextStyle(size: 18, maxWidth: 150, minimumSize: 18))
        #expect(arabic.lineCount > 1 && !arabic.glyphs.contains { $0.glyph == hyphen && $0.font == 0 })
    }

    @Test func aLetterIsNeverSeparatedFromItsAccents() {
        let typesetter = fonts.typesetter
        let block = typesetter.layout(Self.accented + Self.accented, TextStyle(size: 18, maxWidth: 12, maxHeight: 40, minimumSize: 18))
        // Two letters, each wider than nothing: one per line, each with all its accents.
        #expect(block.lineCount == 2)
        #expect(block.glyphs.count >= 2 * 398, "each letter with its accents (HarfBuzz may compose the first)")
    }

    @Test func hostileTextOnTheLauncherStaysInsideItsTiles() {
        let app = self.app([
            TextKey.launcherHeading: Self.longWord,
            TextKey.title("motion-cube"): Self.longWord,
            TextKey.instruction("motion-cube"): Self.longWords + " " + Self.longWords,
            TextKey.title("tilt-box"): Self.accented,
            TextKey.instruction("tilt-box"): Self.accented + " " + Self.longWord,
            TextKey.title("newtons-cradle"): Self.longWords,
            TextKey.instruction("grid-block"): Self.longWord,
        ])
        let (texts, changed) = pixelsChangedOutsideTextBoxes(app)
        #expect(changed == 0, "\(changed) pixels outside the text boxes changed")
        let controls = Self.controls(app)
        let tiles = controls.filter { $0.key.hasPrefix("exhibit.") }
        #expect(tiles.count == ExhibitRegistry.tiles.count)
        var inTiles = 0
        for (block, clip) in texts {
            let clip = try! #require(clip, "'\(block.text.prefix(20))' has a box")
            #expect(Self.inside(clip, Rect(x: 0, y: 0, width: 480, height: 800)))
            if tiles.values.contains(where: { Self.inside(clip, $0) }) { inTiles += 1 }
            // No control is under text that is not its own.
            for (id, frame) in controls where !Self.inside(clip, frame) {
                #expect(clip.intersection(PixelRect(centresIn: frame)).isEmpty, "'\(block.text.prefix(20))' box \(clip) over \(id)")
            }
        }
        #expect(inTiles == 2 * tiles.count, "a title and an instruction in each tile")
    }

    @Test(arguments: [(480, 800), (720, 1280), (400, 400)])
    func hostileModeLabelsStayOnCircleDrawsControls(width: Int, height: Int) {
        let app = self.app([
            TextKey.exhibit("circle-draw", "mode.draw"): Self.longWord,
            TextKey.exhibit("circle-draw", "mode.delete"): Self.accented,
            TextKey.exhibit("circle-draw", "mode.move"): Self.longWords,
        ], width: width, height: height)
        app.open("circle-draw")
        let (texts, changed) = pixelsChangedOutsideTextBoxes(app)
        #expect(changed == 0, "\(width)x\(height): \(changed) pixels outside the text boxes changed")
        let labels = texts.filter { [Self.longWord, Self.accented, Self.longWords].contains($0.block.text) }
        #expect(labels.count == 3)
        let controls = Self.controls(app)
        for (block, clip) in labels {
            let clip = try! #require(clip)
            let own = controls.filter { $0.key.hasPrefix("mode.") && Self.inside(clip, $0.value) }
            #expect(own.count == 1, "\(width)x\(height): '\(block.text.prefix(12))' box \(clip) in \(own.keys.sorted()) of \(controls.keys.sorted())")
            for (id, frame) in controls where own[id] == nil {
                #expect(clip.intersection(PixelRect(centresIn: frame)).isEmpty, "\(width)x\(height): '\(block.text.prefix(12))' over \(id)")
            }
        }
    }
}
