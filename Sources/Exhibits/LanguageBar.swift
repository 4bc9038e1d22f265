import Geometry
import Raster
import VisitorText

/// The language buttons, one per language of the stand, each labelled in its own language.
/// They sit at the top right, right to left, wrapping to a second row when the screen is
/// narrow; the launcher and every exhibit show them in the same place.
struct LanguageBar {
    struct Button { let language: Language; let frame: Rect; let label: TextBlock }
    let buttons: [Button]
    private let labelSize: Double

    /// Empty for a stand with one language. `leftLimit`: buttons stay right of it (the home
    /// control); `top`: the first row's top; `scale`: the 480×800 design's, by the smaller side.
    init(text: TextBook, fonts: FontSet, width: Double, top: Double, leftLimit: Double, scale: Double, legibleSize: Double) {
        guard text.languages.count > 1 else { buttons = []; labelSize = 0; return }
        // A finger-sized button (9 mm) at least, at the 480×800 design's 56 px where larger.
        let height = max(9 * legibleSize / 2.5, 56 * scale).rounded()
        let gap = (8 * scale).rounded()
        let margin = (8 * scale).rounded()
        labelSize = max(18 * scale, legibleSize)
        var made: [Button] = []
        var right = width - margin, rowTop = top
        for language in text.languages {
            let label = fonts.typesetter.layout(language.autonym, TextStyle(size: labelSize, bold: true, language: language.code))
            let w = max(height, (label.width + 2 * max(12 * scale, labelSize * 0.6)).rounded(.up))
            if right - w < leftLimit && !made.isEmpty && right < width - margin {
                right = width - margin
                rowTop += height + gap
            }
            made.append(Button(language: language, frame: Rect(x: right - w, y: rowTop, width: w, height: height), label: label))
            right -= w + gap
        }
        buttons = made
    }

    var frames: [Rect] { buttons.map { $0.frame } }

    /// `pressed`: the button a finger is on now (drawn darker).
    func draw(current: Language, pressed: Int? = nil, into list: inout [DrawCommand]) {
        for (i, b) in buttons.enumerated() {
            let selected = b.language == current
            let fill = selected ? Color(r: 40, g: 40, b: 48) : Color(r: 226, g: 226, b: 232)
            list.append(.rect(b.frame, transform: .identity, color: pressed == i ? fill.pressed : fill))
            let origin = Vec2((b.frame.center.x - b.label.width / 2).rounded(), (b.frame.center.y - b.label.height / 2).rounded())
            list.append(.text(b.label, origin: origin, clip: PixelRect(centresIn: b.frame), color: selected ? .white : Color(r: 40, g: 40, b: 48)))
        }
    }

    func controls(current: Language) -> [ControlState] {
        buttons.map { ControlState(id: "language.\($0.language.code)", frame: $0.frame, selected: $0.language == current) }
    }
}
