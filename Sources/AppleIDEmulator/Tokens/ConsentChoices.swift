/// What the person chose on the consent step (or sent in one POST).
struct ConsentChoices: Sendable {
    var firstName: String?
    var lastName: String?
    var emailChoice: EmailChoice?
}
