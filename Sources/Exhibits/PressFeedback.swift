import Geometry
import Gestures

/// Which of a set of controls a finger is pressing: it went down on it and has neither
/// strayed past a tap's allowance nor lifted. A control drawn pressed from touch-down shows
/// the visitor the touch at once, although the tap is only recognised on lifting.
struct PressTracker {
    private(set) var pressed: (slot: Int, index: Int, from: Vec2)?
    private let allowance = TapGestureRecognizer().allowableMovement

    /// The index (in the `regions` given) of the control pressed now.
    var index: Int? { pressed?.index }

    mutating func follow(_ frame: TouchFrame, regions: [Rect]) {
        for e in frame.events {
            switch e.phase {
            case .down:
                if pressed == nil, let i = regions.firstIndex(where: { $0.contains(e.position) }) { pressed = (e.slot, i, e.position) }
            case .move:
                if let p = pressed, p.slot == e.slot,
                   e.position.distance(to: p.from) > allowance || p.index >= regions.count || !regions[p.index].contains(e.position) {
                    pressed = nil
                }
            case .up, .cancel:
                if pressed?.slot == e.slot { pressed = nil }
            }
        }
    }

    mutating func release() { pressed = nil }
}

extension Color {
    /// The colour a pressed control takes: darker by a fifth, as a UIKit button highlights.
    var pressed: Color {
        Color(r: UInt8(Double(r) * 0.8), g: UInt8(Double(g) * 0.8), b: UInt8(Double(b) * 0.8), a: a)
    }
}
