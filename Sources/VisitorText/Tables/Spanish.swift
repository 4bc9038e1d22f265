/// Spanish: the familiar imperative (tú), usual for hands-on exhibits.
let spanish: [String: String] = [
    "launcher.heading": "MotionKiosk",
    "attract.call": "Toca la pantalla para jugar",
    "motion-cube.title": "Cubo en movimiento",
    "motion-cube.instruction": "Toca para soltar figuras; arrástralas, pellízcalas, gíralas; inclina el soporte",
    "tilt-box.title": "Caja inclinable",
    "tilt-box.instruction": "Inclina el soporte; toca dos veces la caja o mantenla pulsada",
    "newtons-cradle.title": "Péndulo de Newton",
    "newtons-cradle.instruction": "Aparta una bola hacia un lado y suéltala",
    "circle-draw.title": "Dibuja círculos",
    "circle-draw.instruction": "Dibuja círculos, luego cambia a «Mover» y lánzalos",
    "grid-block.title": "Bloque en la cuadrícula",
    "grid-block.instruction": "Toca para empezar, desliza para guiar el bloque",
    "circle-draw.mode.draw": "Dibujar",
    "circle-draw.mode.delete": "Borrar",
    "circle-draw.mode.move": "Mover",
]
