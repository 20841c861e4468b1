import Foundation
import JuiceTestSupport
import Testing

@testable import AppleSignInConformance

/// Issue 48: what a backend sends reaches the kit's HTML report, its JUnit report and its terminal table
/// only as text — escaped by Unicode scalar, parsed back by Python's `html.parser` and `xml.etree`.
@Suite("Conformance reports: a backend's text stays text in HTML, JUnit and the terminal")
struct ReportEscapingTests {
    /// A report whose every text (backend, ids, titles, details, fixes, references) is `text`, with one case
    /// of each verdict so every branch of every format renders.
    static func report(_ text: String) -> ConformanceReport {
        func make(_ suffix: String, expect: ConformanceCase.Expectation, level: ConformanceCase.Level = .required) -> ConformanceCase {
            ConformanceCase(text + suffix, text, expect: expect, level: level, hint: text, reference: text)
        }
        let cases = [
            ConformanceReport.CaseResult(make("-failed", expect: .accept), observation: .refused(text), baseline: nil),
            ConformanceReport.CaseResult(make("-passed", expect: .accept), observation: .accepted(text), baseline: nil),
            ConformanceReport.CaseResult(make("-warning", expect: .refuse, level: .recommended), observation: .accepted(text), baseline: nil),
            ConformanceReport.CaseResult(make("-inconclusive", expect: .refuse), observation: .inconclusive(text), baseline: nil),
            ConformanceReport.CaseResult(make("-skipped", expect: .refuse), observation: .skipped(text), baseline: nil),
            ConformanceReport.CaseResult(make("-information", expect: .accept, level: .information), observation: .accepted(text), baseline: nil),
        ]
        return ConformanceReport(backend: text, cases: cases)
    }

    static let hostile = HostileMarkup.all + " " + HostileMarkup.reportRedirectURI

    @Test("the HTML report: the issue's redirect_uri and every hostile text open no element or attribute; its CSP allows no script")
    func html() async throws {
        let attacked = try await ParsedMarkup.html(Self.report(Self.hostile).html())
        let expected = try await ParsedMarkup.html(Self.report("harmless").html())
        #expect(attacked.shape == expected.shape)
        #expect(!attacked.elements.contains { $0.tag == "img" })
        #expect(attacked.shows(HostileMarkup.reportRedirectURI))
        #expect(Self.report("x").html().contains(#"content="default-src 'none'; style-src 'unsafe-inline'"#))
    }

    @Test("the JUnit report is well-formed XML 1.0 with U+FFFE, ESC and marks in every text, and has only its own elements")
    func junit() async throws {
        let attacked = try await ParsedMarkup.xml(Self.report(Self.hostile).junit())
        #expect(attacked.error == nil)
        let expected = try await ParsedMarkup.xml(Self.report("harmless").junit())
        #expect(expected.error == nil)
        #expect(attacked.shape == expected.shape)
        #expect(attacked.shows(HostileMarkup.reportRedirectURI))
        let newlines = try await ParsedMarkup.xml(Self.report("line one\nline\ttwo\r").junit())
        #expect(newlines.shows("line one\nline\ttwo\r"), "attribute values keep their line breaks")
    }

    @Test("the terminal table shows escape sequences, carriage returns, C1 controls and direction overrides instead of sending them")
    func table() {
        let table = Self.report(Self.hostile + " \u{202E}desrever").table()
        let lines = table.split(separator: "\n", omittingEmptySubsequences: false)
        for scalar in table.unicodeScalars where scalar != "\n" {
            #expect(!(scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || (0x202A...0x202E).contains(scalar.value)), "\(scalar.value)")
        }
        #expect(table.contains(#"\u{1B}[2J"#) && table.contains(#"\u{9B}"#) && table.contains(#"\u{202E}"#) && table.contains(#"\u{D}"#))
        #expect(lines.count == Self.report("harmless").table().split(separator: "\n", omittingEmptySubsequences: false).count)
    }
}
