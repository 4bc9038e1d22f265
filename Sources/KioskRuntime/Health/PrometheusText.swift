/// Prometheus's text exposition format (0.0.4), as node_exporter's textfile collector reads
/// it: per family a HELP and a TYPE line, then its samples, each `name{label="value"} number`.
public struct PrometheusText {
    public enum Kind: String { case counter, gauge, histogram }
    public private(set) var text = ""

    public init() {}

    /// Starts a family; its samples follow.
    public mutating func family(_ name: String, _ kind: Kind, help: String) {
        text += "# HELP \(name) " + PrometheusText.escapedHelp(help) + "\n# TYPE \(name) \(kind.rawValue)\n"
    }

    public mutating func sample(_ name: String, _ labels: [(String, String)] = [], _ value: Double) {
        text += name
        if !labels.isEmpty {
            text += "{" + labels.map { "\($0.0)=\"" + PrometheusText.escapedLabel($0.1) + "\"" }.joined(separator: ",") + "}"
        }
        text += " " + PrometheusText.number(value) + "\n"
    }

    /// A histogram from bucket bounds and the count of observations at or below each (the
    /// `le` buckets are cumulative), with their sum and total count.
    public mutating func histogram(_ name: String, bounds: [Double], cumulative: [Int], sum: Double, count: Int) {
        for (bound, n) in zip(bounds, cumulative) { sample(name + "_bucket", [("le", PrometheusText.number(bound))], Double(n)) }
        sample(name + "_bucket", [("le", "+Inf")], Double(count))
        sample(name + "_sum", [], sum)
        sample(name + "_count", [], Double(count))
    }

    /// Whole numbers without a fraction, others with enough digits, and the format's words
    /// for infinities and NaN.
    static func number(_ v: Double) -> String {
        if v.isNaN { return "NaN" }
        if v.isInfinite { return v > 0 ? "+Inf" : "-Inf" }
        if v == v.rounded() && abs(v) < 1e15 { return String(Int64(v)) }
        return "\(v)"
    }

    /// HELP text escapes backslash and newline; label values also the double quote.
    static func escapedHelp(_ s: String) -> String { escaped(s, quotes: false) }
    static func escapedLabel(_ s: String) -> String { escaped(s, quotes: true) }

    private static func escaped(_ s: String, quotes: Bool) -> String {
        var out = ""
        for c in s.unicodeScalars {
            switch c {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\"" where quotes: out += "\\\""
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
