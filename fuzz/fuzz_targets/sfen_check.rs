//! Arbitrary bytes as one line of an SFEN file: checking never panics, every diagnostic has
//! exactly one primary label, and every label lies within the text it refers to, on character
//! boundaries (a point at the end of the text is within it).

#![no_main]

use kifu::check::{check_line, Format, LineReport};
use kifu::sfen::{self, DialectChoice};
use kifu::Diagnostic;
use libfuzzer_sys::fuzz_target;

const CHOICES: [DialectChoice; 3] = [DialectChoice::Auto, DialectChoice::Sfen2007, DialectChoice::Usi];

fn assert_labels_sound(text: &str, diagnostics: &[Diagnostic]) {
    for d in diagnostics {
        let primaries = d.labels.iter().filter(|l| l.primary).count();
        assert_eq!(primaries, 1, "{} has {primaries} primary labels, on {text:?}", d.code);
        for l in &d.labels {
            let s = l.span;
            assert!(s.start <= s.end, "{}: reversed span {s:?} on {text:?}", d.code);
            assert!(s.end <= text.len(), "{}: span {s:?} ends past the text ({} bytes): {text:?}", d.code, text.len());
            assert!(
                text.is_char_boundary(s.start) && text.is_char_boundary(s.end),
                "{}: span {s:?} splits a character of {text:?}",
                d.code
            );
        }
    }
}

fn assert_report_sound(report: &LineReport) {
    assert_labels_sound(&report.text, &report.diagnostics);
}

fuzz_target!(|data: &[u8]| {
    // Line 1 (a byte-order mark is allowed and reported) and any later line.
    for choice in CHOICES {
        for line in [1, 2] {
            let report = check_line(Format::Sfen(choice), line, data, data.len());
            assert_report_sound(&report);
            if std::str::from_utf8(data).is_err() {
                assert!(!report.is_valid(), "bytes that are not UTF-8 passed");
            }
        }
    }
    // The checker itself, on the text as check_line decodes it.
    let text = String::from_utf8_lossy(data);
    if text.len() <= kifu::check::MAX_LINE {
        for choice in CHOICES {
            let checked = sfen::check(&text, choice);
            assert_labels_sound(&text, &checked.diagnostics);
        }
    }
});
