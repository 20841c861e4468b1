/// Apple's assessment of whether the person is real (`real_user_status`), as `ASUserDetectionStatus`.
public enum UserDetectionStatus: Int, Sendable, Hashable, CaseIterable {
    /// Not supported on this platform, or not reported (every sign-in after the first one).
    case unsupported = 0
    /// Apple cannot tell yet.
    case unknown = 1
    /// The person is very likely real.
    case likelyReal = 2
}
