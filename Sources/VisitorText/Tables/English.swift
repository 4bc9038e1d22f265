/// The kiosk's own wording, and the fallback for every other table.
let english: [String: String] = [
    "launcher.heading": "MotionKiosk",
    "attract.call": "Touch the screen to play",
    "motion-cube.title": "Motion Cube",
    "motion-cube.instruction": "Tap to drop shapes; drag, pinch, turn them; tilt the stand",
    "tilt-box.title": "Tilt Box",
    "tilt-box.instruction": "Tilt the stand; double tap or hold the box",
    "newtons-cradle.title": "Newton's Cradle",
    "newtons-cradle.instruction": "Pull a ball sideways and let it go",
    "circle-draw.title": "Circle Draw",
    "circle-draw.instruction": "Draw circles, then switch to Move and flick them",
    "grid-block.title": "Grid Block",
    "grid-block.instruction": "Tap to start, swipe to steer the block",
    "circle-draw.mode.draw": "Draw",
    "circle-draw.mode.delete": "Delete",
    "circle-draw.mode.move": "Move",
]
