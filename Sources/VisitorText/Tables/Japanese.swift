/// Japanese: the friendly volitional (〜しよう) of children's museum panels.
let japanese: [String: String] = [
    "launcher.heading": "MotionKiosk",
    "attract.call": "画面にさわってあそぼう",
    "motion-cube.title": "モーションキューブ",
    "motion-cube.instruction": "タップで図形を落とし、ドラッグ・ピンチ・回転で動かそう。台をかたむけてみよう",
    "tilt-box.title": "かたむけボックス",
    "tilt-box.instruction": "台をかたむけよう。箱をダブルタップするか、長押ししてみよう",
    "newtons-cradle.title": "ニュートンのゆりかご",
    "newtons-cradle.instruction": "玉を横に引っぱって、はなしてみよう",
    "circle-draw.title": "円をかこう",
    "circle-draw.instruction": "円をかいたら「動かす」に切りかえて、はじいてみよう",
    "grid-block.title": "グリッドブロック",
    "grid-block.instruction": "タップでスタート、スワイプでブロックを動かそう",
    "circle-draw.mode.draw": "かく",
    "circle-draw.mode.delete": "けす",
    "circle-draw.mode.move": "動かす",
]
