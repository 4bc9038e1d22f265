import Diagnostics
import VisitorText

extension KioskApp {
    /// A visitor picked a language: every screen's text follows at once.
    public func selectLanguage(_ code: String) {
        guard code != text.current.code, text.select(code) else { return }
        log.info("language \(code)")
    }

    /// Back to the stand's first language, for the next visitor.
    func resetLanguage() {
        if text.current != text.defaultLanguage { text.select(text.defaultLanguage.code) }
    }
}
