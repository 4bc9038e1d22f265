import Geometry
import Gestures
import Raster
import VisitorText

/// The first screen: one big tile per exhibit with its title and instruction, in the
/// visitor's language. A tap on a tile opens that exhibit. Titles and instructions wrap
/// inside their tile, shrink only as far as a legible size, and the tiles share the height
/// below the heading; text that reads right to left sits at the tile's right.
final class Launcher {
    private let width: Int, height: Int
    private let fonts: FontSet
    private let exhibits: [ExhibitType]
    private let text: TextBook
    private let legibleSize: Double
    /// Where the launcher starts below the app's own controls (the language buttons).
    private let top: Double
    let tiles: [Rect]
    /// Titles may shrink to the legible size itself: only where no grid keeps every text
    /// whole with bigger ones (seven or eight tiles on a small screen).
    private let smallTitles: Bool
    private let headingBox: Rect
    /// Laid-out text per language code, made on first use.
    private var laidOut: (revision: Int, commands: [DrawCommand])? = nil
    /// The tile under a finger that went down on it and has not strayed (the tap's own
    /// allowance): drawn pressed at once, so the visitor sees the touch before the tap is
    /// recognised on lifting.
    private var press = PressTracker()

    static let background = Color(r: 246, g: 246, b: 250)

    init(width: Int, height: Int, fonts: FontSet, exhibits: [ExhibitType], text: TextBook, top: Double, legibleSize: Double,
         gestures: GestureEnvironment, open: @escaping (ExhibitType) -> Void) {
        self.width = width; self.height = height; self.fonts = fonts; self.exhibits = exhibits
        self.text = text; self.top = top; self.legibleSize = legibleSize
        // Sizes for a 480×800 screen, scaled by the smaller ratio: a square panel is not
        // given text and margins for a tall one.
        let s = min(Double(width) / 480, Double(height) / 800)
        let margin = (16 * s).rounded()
        let headingHeight = max((72 * s).rounded(), (legibleSize * 2.6).rounded())
        headingBox = Rect(x: margin, y: top, width: Double(width) - 2 * margin, height: headingHeight)
        let area = Rect(x: margin, y: top + headingHeight, width: Double(width) - 2 * margin,
                        height: max(1, Double(height) - top - headingHeight - margin))
        // One column where every language's text fits it, else two, else three; then the same
        // with titles down to the legible size; where none fits all, the one that cuts the
        // fewest texts.
        let gap = (12 * s).rounded()
        var chosen: (tiles: [Rect], smallTitles: Bool, cut: Int)? = nil
        search: for smallTitles in [false, true] {
            for columns in 1...3 {
                let candidate = Launcher.grid(count: exhibits.count, columns: columns, in: area, gap: gap)
                var cut = 0
                for language in text.languages {
                    for i in exhibits.indices where !Launcher.tileText(fonts: fonts, text: text, info: exhibits[i].profile, tile: candidate[i],
                                                                       language: language, scale: s, legibleSize: legibleSize,
                                                                       smallTitles: smallTitles).fits {
                        cut += 1
                    }
                }
                if chosen == nil || cut < chosen!.cut { chosen = (candidate, smallTitles, cut) }
                if cut == 0 { break search }
            }
        }
        tiles = chosen?.tiles ?? []
        smallTitles = chosen?.smallTitles ?? false
        for (i, exhibit) in exhibits.enumerated() {
            gestures.add(TapGestureRecognizer(region: tiles[i], name: "open \(exhibit.name)") { tap in
                if tap.state == .ended { open(exhibit) }
            })
        }
    }

    /// Follows the fingers for the pressed look (the taps themselves go to the recognisers).
    func touches(_ frame: TouchFrame) { press.follow(frame, regions: tiles) }

    /// `count` tiles in `columns` columns filling `area`, in reading order.
    static func grid(count: Int, columns: Int, in area: Rect, gap: Double) -> [Rect] {
        let rows = max(1, (count + columns - 1) / columns)
        let w = ((area.width - gap * Double(columns - 1)) / Double(columns)).rounded(.down)
        let h = ((area.height - gap * Double(rows - 1)) / Double(rows)).rounded(.down)
        return (0..<count).map { i in
            Rect(x: area.minX + Double(i % columns) * (w + gap), y: area.minY + Double(i / columns) * (h + gap), width: w, height: h)
        }
    }

    /// A tile's title and instruction in `language`, placed in the tile, each with the box it
    /// is drawn in (cut there when it cannot fit); `fits` when both are whole at a legible size.
    /// `smallTitles`: the title may go down to the legible size (bold), else to 1.3 times it.
    static func tileText(fonts: FontSet, text: TextBook, info: ExhibitProfile, tile t: Rect, language: Language, scale s: Double,
                         legibleSize: Double, smallTitles: Bool = false)
        -> (title: TextBlock, instruction: TextBlock, origin: Vec2, instructionTop: Double, titleBox: Rect, instructionBox: Rect, fits: Bool) {
        let minimumTitle = legibleSize * 1.3
        let laid = tileText(fonts: fonts, text: text, info: info, tile: t, language: language, scale: s, legibleSize: legibleSize,
                            titleSize: min(30 * s, max(minimumTitle, t.height * 0.3)), titleMinimum: minimumTitle)
        // A narrow tile: a big title wraps into lines the instruction needs; a smaller title
        // (on fewer lines) leaves it more.
        if laid.fits { return laid }
        for size in smallTitles ? [minimumTitle, legibleSize] : [minimumTitle] where size < laid.title.size {
            let smaller = tileText(fonts: fonts, text: text, info: info, tile: t, language: language, scale: s, legibleSize: legibleSize,
                                   titleSize: size, titleMinimum: size)
            if smaller.fits { return smaller }
        }
        return laid
    }

    private static func tileText(fonts: FontSet, text: TextBook, info: ExhibitProfile, tile t: Rect, language: Language, scale s: Double,
                                 legibleSize: Double, titleSize: Double, titleMinimum: Double)
        -> (title: TextBlock, instruction: TextBlock, origin: Vec2, instructionTop: Double, titleBox: Rect, instructionBox: Rect, fits: Bool) {
        // Narrow tiles (two or three columns) keep less of their width for padding.
        let padX = min((20 * s).rounded(), (t.width * 0.06).rounded()), padY = (10 * s).rounded()
        let inner = Rect(x: t.minX + padX, y: t.minY + padY, width: max(1, t.width - 2 * padX), height: max(1, t.height - 2 * padY))
        // The title takes what it needs (one line at most sizes); the instruction the rest.
        let title = fonts.block(text.text(TextKey.title(info.name), in: language), in: Rect(x: 0, y: 0, width: inner.width, height: inner.height * 0.5),
                                size: titleSize, minimumSize: titleMinimum, bold: true, language: language.code)
        let spacing = (4 * s).rounded()
        // A title that cannot fit keeps to its half: the instruction is not pushed out.
        let titleHeight = title.fits ? title.height : min(title.height, inner.height * 0.5)
        let instructionBox = Rect(x: 0, y: 0, width: inner.width, height: max(1, inner.height - titleHeight - spacing))
        let instruction = fonts.block(text.text(TextKey.instruction(info.name), in: language), in: instructionBox,
                                      size: max(legibleSize, min(18 * s, t.height * 0.18)), minimumSize: legibleSize,
                                      language: language.code)
        let used = titleHeight + spacing + instruction.height
        let origin = Vec2(inner.minX, (inner.minY + max(0, (inner.height - used) / 2)).rounded())
        let instructionTop = origin.y + titleHeight + spacing
        return (title, instruction, origin, instructionTop,
                Rect(x: inner.minX, y: inner.minY, width: inner.width, height: max(0, min(inner.maxY, instructionTop) - inner.minY)),
                Rect(x: inner.minX, y: instructionTop, width: inner.width, height: max(0, inner.maxY - instructionTop)),
                title.fits && instruction.fits)
    }

    /// The heading and every tile's text in the current language, each inside its box.
    func textCommands() -> [DrawCommand] {
        if let cached = laidOut, cached.revision == text.revision { return cached.commands }
        let language = text.current
        let s = min(Double(width) / 480, Double(height) / 800)
        var list: [DrawCommand] = []
        list.append(fonts.text(text[TextKey.launcherHeading], in: headingBox, size: max(34 * s, legibleSize * 1.4),
                               minimumSize: legibleSize * 1.4, bold: true, alignment: .center, vertical: .center,
                               language: language.code, color: Color(r: 28, g: 28, b: 36)))
        for (i, info) in exhibits.enumerated() {
            let laid = Launcher.tileText(fonts: fonts, text: text, info: info.profile, tile: tiles[i], language: language, scale: s,
                                         legibleSize: legibleSize, smallTitles: smallTitles)
            // Each block only inside the tile's padding, the title above the instruction.
            list.append(.text(laid.title, origin: laid.origin, clip: PixelRect(centresIn: laid.titleBox), color: .white))
            list.append(.text(laid.instruction, origin: Vec2(laid.origin.x, laid.instructionTop), clip: PixelRect(centresIn: laid.instructionBox),
                              color: Color(r: 240, g: 240, b: 245)))
        }
        laidOut = (text.revision, list)
        return list
    }

    func draw(into list: inout [DrawCommand]) -> Color {
        for (i, info) in exhibits.enumerated() {
            list.append(.rect(tiles[i], transform: .identity, color: press.index == i ? info.profile.tileColor.pressed : info.profile.tileColor))
        }
        list.append(contentsOf: textCommands())
        return Launcher.background
    }

    func state() -> ExhibitState {
        ExhibitState(background: Launcher.background,
                     controls: exhibits.enumerated().map { ControlState(id: "exhibit.\($1.name)", frame: tiles[$0]) })
    }
}
