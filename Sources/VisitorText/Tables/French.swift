/// French: the polite imperative (vous), as French museum labels use; a space before ";".
let french: [String: String] = [
    "launcher.heading": "MotionKiosk",
    "attract.call": "Touchez l’écran pour jouer",
    "motion-cube.title": "Cube en mouvement",
    "motion-cube.instruction": "Touchez pour faire tomber des formes ; faites-les glisser, pincez-les, tournez-les ; inclinez la borne",
    "tilt-box.title": "Boîte à incliner",
    "tilt-box.instruction": "Inclinez la borne ; touchez deux fois la boîte ou gardez le doigt dessus",
    "newtons-cradle.title": "Pendule de Newton",
    "newtons-cradle.instruction": "Écartez une bille sur le côté, puis lâchez-la",
    "circle-draw.title": "Dessin de cercles",
    "circle-draw.instruction": "Dessinez des cercles, puis passez à « Déplacer » et lancez-les",
    "grid-block.title": "Bloc sur la grille",
    "grid-block.instruction": "Touchez pour commencer, glissez le doigt pour guider le bloc",
    "circle-draw.mode.draw": "Dessiner",
    "circle-draw.mode.delete": "Effacer",
    "circle-draw.mode.move": "Déplacer",
]
