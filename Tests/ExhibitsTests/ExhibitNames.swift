import Exhibits

/// Tests name exhibits as a config file does ("tilt-box"); a name the registry lacks is a
/// mistake in the test and stops it.
extension ExhibitType: ExpressibleByStringLiteral {
    public init(stringLiteral name: String) {
        guard let type = ExhibitRegistry.named(name) else { preconditionFailure("no exhibit named \(name) in ExhibitRegistry") }
        self = type
    }
}
