/// German: infinitives, as German touch-screen labels address no one in particular.
let german: [String: String] = [
    "launcher.heading": "MotionKiosk",
    "attract.call": "Zum Spielen den Bildschirm berühren",
    "motion-cube.title": "Formen in Bewegung",
    "motion-cube.instruction": "Tippen lässt Formen fallen; ziehen, mit zwei Fingern zoomen und drehen; das Pult neigen",
    "tilt-box.title": "Kippkiste",
    "tilt-box.instruction": "Das Pult neigen; die Kiste doppelt antippen oder festhalten",
    "newtons-cradle.title": "Newton-Pendel",
    "newtons-cradle.instruction": "Eine Kugel zur Seite ziehen und loslassen",
    "circle-draw.title": "Kreise zeichnen",
    "circle-draw.instruction": "Kreise zeichnen, dann zu „Bewegen“ wechseln und sie wegschnippen",
    "grid-block.title": "Block im Raster",
    "grid-block.instruction": "Zum Starten tippen, mit Wischen den Block lenken",
    "circle-draw.mode.draw": "Zeichnen",
    "circle-draw.mode.delete": "Löschen",
    "circle-draw.mode.move": "Bewegen",
]
