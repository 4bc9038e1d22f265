/// Arabic (Modern Standard): the masculine imperative, as Arabic interface text usually is.
let arabic: [String: String] = [
    "launcher.heading": "MotionKiosk",
    "attract.call": "المس الشاشة لتبدأ اللعب",
    "motion-cube.title": "المكعب المتحرك",
    "motion-cube.instruction": "انقر لإسقاط الأشكال، واسحبها وكبّرها وأدِرها، وأمِل الحامل",
    "tilt-box.title": "صندوق الإمالة",
    "tilt-box.instruction": "أمِل الحامل، وانقر على الصندوق مرتين أو اضغط عليه مطوّلًا",
    "newtons-cradle.title": "مهد نيوتن",
    "newtons-cradle.instruction": "اسحب كرة إلى الجانب ثم اتركها",
    "circle-draw.title": "رسم الدوائر",
    "circle-draw.instruction": "ارسم دوائر، ثم انتقل إلى «تحريك» وادفعها بإصبعك",
    "grid-block.title": "مكعب الشبكة",
    "grid-block.instruction": "انقر للبدء، ثم اسحب إصبعك لتوجيه المكعب",
    "circle-draw.mode.draw": "رسم",
    "circle-draw.mode.delete": "حذف",
    "circle-draw.mode.move": "تحريك",
]
