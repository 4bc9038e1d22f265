import Geometry
import Gestures
import Raster
import VisitorText

/// Feeds an exhibit's built-in demo to it, as if a visitor were playing.
final class AttractPlayback {
    let exhibit: ExhibitType
    var name: String { exhibit.name }
    private let frames: [TouchFrame]
    private let playing: any Exhibit
    private let gestures: GestureEnvironment
    private let start: Microseconds
    private var next = 0
    private var now: Microseconds
    /// A pause after the demo's last touch, so that its ending can be seen.
    private let tail: Microseconds = 2_500_000

    init(exhibit: ExhibitType, frames: [TouchFrame], playing: any Exhibit, gestures: GestureEnvironment, start: Microseconds) {
        self.playing = playing
        self.exhibit = exhibit; self.frames = frames; self.gestures = gestures; self.start = start; now = start
    }

    func advance(to time: Microseconds) {
        now = time
        while next < frames.count, start + frames[next].time <= time {
            var f = frames[next]
            f.time += start
            // Device -1: no real touchscreen, so unplugging one never cancels the demo.
            for i in f.events.indices { f.events[i].time += start; f.events[i].device = -1 }
            // As live touches reach it: the exhibit first, then its recognizers.
            playing.touches(f)
            gestures.handle(f)
            next += 1
        }
    }

    private var end: Microseconds { start + (frames.last?.time ?? 0) + tail }
    var isFinished: Bool { next >= frames.count && now >= end }
    var nextDeadline: Microseconds? { next < frames.count ? start + frames[next].time : end }
}

/// The band over the attract loop's demo: a call to touch, and the exhibit's title.
struct AttractBanner {
    let width: Int
    let height: Int
    let fonts: FontSet
    let legibleTextSize: Double

    func draw(_ name: String, text: TextBook, into list: inout [DrawCommand]) {
        let scale = Double(width) / 480
        let h = (96 * scale).rounded()
        let y = Double(height) - h
        list.append(.fillPixels(PixelRect(x: 0, y: Int(y), width: width, height: Int(h)), Color(r: 20, g: 20, b: 28)))
        let language = text.current.code
        let margin = (12 * scale).rounded()
        let box = Rect(x: margin, y: y + margin / 2, width: Double(width) - 2 * margin, height: h - margin)
        let call = fonts.block(text[TextKey.attractCall], in: Rect(x: 0, y: 0, width: box.width, height: box.height * 0.6),
                               size: max(26 * scale, legibleTextSize * 1.3), minimumSize: legibleTextSize * 1.2, bold: true,
                               alignment: .center, language: language)
        let title = fonts.block(text[TextKey.title(name)], in: Rect(x: 0, y: 0, width: box.width, height: box.height - call.height),
                                size: max(18 * scale, legibleTextSize), minimumSize: legibleTextSize, alignment: .center, language: language)
        let top = (box.minY + max(0, box.height - call.height - title.height) / 2).rounded()
        let clip = PixelRect(centresIn: box)
        list.append(.text(call, origin: Vec2(box.minX, top), clip: clip, color: .white))
        list.append(.text(title, origin: Vec2(box.minX, top + call.height), clip: clip, color: Color(r: 200, g: 200, b: 210)))
    }
}
