/// Apple's assessment of whether the person is real (`real_user_status`), as in
/// `ASUserDetectionStatus`.
public enum RealUserStatus: Int, Sendable, Hashable, Codable {
    /// The device could not tell (not supported on this platform or OS).
    case unsupported = 0
    /// Apple cannot tell yet.
    case unknown = 1
    /// The person is very likely real.
    case likelyReal = 2
}
