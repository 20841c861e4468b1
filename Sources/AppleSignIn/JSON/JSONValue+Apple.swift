import JuiceEncodings

extension JSONValue {
    /// A boolean that Apple may send as a JSON boolean or as the string `"true"`/`"false"`.
    package var lenientBool: Bool? {
        switch self {
        case .bool(let value): return value
        case .string("true"): return true  // Apple's spelling, checked before any case folding
        case .string("false"): return false
        case .string(let text):
            switch text.lowercased() {
            case "true": return true
            case "false": return false
            default: return nil
            }
        case .integer(1): return true
        case .integer(0): return false
        default: return nil
        }
    }
}
