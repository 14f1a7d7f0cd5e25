//! One self-contained HTML page of diagrams: inline SVG, inline CSS, and for games a move list
//! beside the board that steps through the positions with buttons and the arrow keys, in plain
//! inline JavaScript. Nothing is loaded from anywhere.

use std::fmt::Write as _;

use super::{escape, svg, Diagram, Names};
use crate::diagnostic::excerpt::{excerpt, Excerpt, LineIndex};
use crate::diagnostic::{Diagnostic, Label};

/// One section of the page, a record's: a heading, the record's text, its diagram when it could
/// be read, and its findings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    /// The heading: where the record is (`file:line`) or the game's name.
    pub title: String,
    /// The record as written (SFEN, FEN), shown under the heading.
    pub notation: Option<String>,
    /// The diagram, when the record could be read.
    pub diagram: Option<Diagram>,
    /// The record's findings (for a record without a diagram, why).
    pub findings: Vec<Finding>,
    /// Notes on what is shown (a long game's first positions left out).
    pub notes: Vec<String>,
}

/// A finding as the page shows it: its code, message and help, and the part of the record's
/// text its labels are on, the characters at fault marked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The text shown and the finding, its spans moved into that text.
    pub excerpt: Excerpt,
    /// The 1-based line of the file where the finding's primary label starts.
    pub line: usize,
}

impl Finding {
    /// The finding `d` on `text`, a text whose first line is line `line` (1-based) of its file.
    pub fn new(text: &str, line: usize, d: &Diagnostic) -> Self {
        let index = LineIndex::new(text);
        let at = line + index.line_of(d.span().start.min(text.len()));
        Self { excerpt: excerpt(text, &index, d), line: at }
    }
}

const STYLE: &str = "body{font-family:'DejaVu Sans',sans-serif;margin:16px;color:#111;background:#fff}\
h1{font-size:20px;margin:0 0 12px}h2{font-size:16px;margin:0 0 4px}\
section.record{margin:0 0 24px;padding:0 0 16px;border-bottom:1px solid #ddd}\
code{font-size:13px;word-break:break-all}\
.viewer{display:flex;gap:16px;align-items:flex-start}\
.frame[hidden]{display:none}\
.moves{max-height:520px;overflow-y:auto;min-width:160px}\
.moves ol{margin:0;padding-left:28px}.moves li{margin:1px 0}\
.moves button.move{border:0;background:none;font:inherit;cursor:pointer;padding:1px 4px}\
.moves button.move.current{background:#f6e05e;font-weight:bold}\
.nav{margin:8px 0}.nav button{font-size:16px;min-width:36px}\
ul.notes{color:#a00;font-size:13px}\
.finding{margin:8px 0;padding:4px 8px;border-left:4px solid #c00;background:#fdf3f3}\
.finding.warning{border-left-color:#b7791f;background:#fdf8ec}\
.finding p{margin:2px 0}.finding .severity{font-weight:bold}\
pre.excerpt{font-family:'DejaVu Sans Mono',monospace;font-size:13px;margin:4px 0;white-space:pre-wrap;word-break:break-all}\
pre.excerpt mark{background:#fbb;border-bottom:2px solid #c00}\
pre.excerpt mark.secondary{background:#dde8f8;border-bottom-color:#36c}\
pre.excerpt mark.point{display:inline-block;width:0;height:1em;border-left:2px solid #c00;background:none;vertical-align:text-bottom}\
pre.excerpt mark[data-label]::after{content:attr(data-label);font-size:9px;vertical-align:super;color:#555}\
ol.labels{margin:2px 0;font-size:13px}ol.labels li.primary{font-weight:bold}\
.finding .help{font-size:13px}";

const SCRIPT: &str = "(function(){\
var viewers=Array.prototype.slice.call(document.querySelectorAll('.viewer'));\
var active=viewers[0]||null;\
function show(v,i){var frames=v.querySelectorAll('.frame');if(!frames.length)return;\
i=Math.max(0,Math.min(frames.length-1,i));\
for(var k=0;k<frames.length;k++){if(k===i){frames[k].removeAttribute('hidden');}else{frames[k].setAttribute('hidden','');}}\
var moves=v.querySelectorAll('button.move');\
for(var k=0;k<moves.length;k++){moves[k].className=(k===i)?'move current':'move';}\
v.setAttribute('data-frame',String(i));active=v;}\
function at(v){return parseInt(v.getAttribute('data-frame')||'0',10);}\
viewers.forEach(function(v){show(v,at(v));\
v.addEventListener('click',function(e){var b=e.target.closest('button');if(!b)return;\
var n=v.querySelectorAll('.frame').length;var step=b.getAttribute('data-step');\
if(step==='first')show(v,0);else if(step==='prev')show(v,at(v)-1);\
else if(step==='next')show(v,at(v)+1);else if(step==='last')show(v,n-1);\
else if(b.hasAttribute('data-to'))show(v,parseInt(b.getAttribute('data-to'),10));});});\
document.addEventListener('keydown',function(e){if(!active)return;var n=active.querySelectorAll('.frame').length;\
if(e.key==='ArrowRight'||e.key==='ArrowDown'){show(active,at(active)+1);e.preventDefault();}\
else if(e.key==='ArrowLeft'||e.key==='ArrowUp'){show(active,at(active)-1);e.preventDefault();}\
else if(e.key==='Home'){show(active,0);e.preventDefault();}\
else if(e.key==='End'){show(active,n-1);e.preventDefault();}});\
})();";

/// The page of `records`, titled `title`, shogi pieces named with `names`: [`start`], a
/// [`section`] for each record, [`end`]. A long list of records is best written a section at a
/// time, as `kifu board --html` does (so only the tests, through `internals`, write a page
/// whole).
#[cfg(feature = "internals")]
pub fn page(title: &str, records: &[Section], names: Names) -> String {
    let mut s = start(title);
    let mut games = false;
    for (i, record) in records.iter().enumerate() {
        games |= section(&mut s, i, record, names);
    }
    s.push_str(&end(games));
    s
}

/// The start of a page titled `title`, up to its first record.
pub fn start(title: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>{}</h1>\n",
        escape(title),
        escape(title)
    )
}

/// The end of a page: the script that steps through games when it shows one (`games`).
pub fn end(games: bool) -> String {
    let script = if games { format!("<script>{SCRIPT}</script>\n") } else { String::new() };
    format!("{script}</body>\n</html>\n")
}

/// Appends the section of record `i` (0-based) to `s`; true when it shows a game (a move
/// list that needs the page's script).
pub fn section(s: &mut String, i: usize, record: &Section, names: Names) -> bool {
    let mut games = false;
    let _ = write!(s, "<section class=\"record\" id=\"record-{}\">\n<h2>{}</h2>\n", i + 1, escape(&record.title));
    if let Some(notation) = &record.notation {
        let _ = writeln!(s, "<p><code>{}</code></p>", escape(notation));
    }
    match &record.diagram {
        Some(Diagram::Chess(position, highlight)) => {
            let _ = writeln!(s, "<div class=\"board\">{}</div>", svg::chess(position, highlight));
        }
        Some(Diagram::Shogi(frames)) if frames.len() == 1 => {
            let f = &frames[0];
            let _ = writeln!(s, "<div class=\"board\">{}</div>", svg::shogi(&f.position, names, &f.last_move));
        }
        Some(Diagram::Shogi(frames)) => {
            games = true;
            let last = frames.len() - 1;
            let _ = write!(s, "<div class=\"viewer\" data-frame=\"{last}\">\n<div class=\"frames\">\n");
            for (k, f) in frames.iter().enumerate() {
                let hidden = if k == last { "" } else { " hidden" };
                let _ = writeln!(
                    s,
                    "<div class=\"frame\" data-index=\"{k}\"{hidden}>{}</div>",
                    svg::shogi(&f.position, names, &f.last_move)
                );
            }
            s.push_str("<div class=\"nav\"><button type=\"button\" data-step=\"first\" title=\"first position (Home)\">|◀</button>\
<button type=\"button\" data-step=\"prev\" title=\"back (←)\">◀</button>\
<button type=\"button\" data-step=\"next\" title=\"forward (→)\">▶</button>\
<button type=\"button\" data-step=\"last\" title=\"last position (End)\">▶|</button></div>\n</div>\n");
            s.push_str("<div class=\"moves\"><ol start=\"0\">\n");
            for (k, f) in frames.iter().enumerate() {
                let label = f.label.as_deref().unwrap_or("start");
                let _ = writeln!(
                    s,
                    "<li><button type=\"button\" class=\"move\" data-to=\"{k}\">{}</button></li>",
                    escape(label)
                );
            }
            s.push_str("</ol></div>\n</div>\n");
        }
        None => {}
    }
    for f in &record.findings {
        finding(s, f);
    }
    if !record.notes.is_empty() {
        s.push_str("<ul class=\"notes\">\n");
        for note in &record.notes {
            let _ = writeln!(s, "<li>{}</li>", escape(note));
        }
        s.push_str("</ul>\n");
    }
    s.push_str("</section>\n");
    games
}

/// Appends the closing section of a page that leaves records out: `note` says how many and
/// how to see them.
pub fn left_out(s: &mut String, note: &str) {
    let _ = write!(
        s,
        "<section class=\"record left-out\">\n<ul class=\"notes\">\n<li>{}</li>\n</ul>\n</section>\n",
        escape(note)
    );
}

/// Appends a finding: its severity, code and message, the text with its labels marked (each
/// numbered as in the list of their messages that follows), and its help.
fn finding(s: &mut String, f: &Finding) {
    let d = &f.excerpt.diagnostic;
    let severity = d.severity.as_str();
    let _ = write!(
        s,
        "<div class=\"finding {severity}\">\n<p><span class=\"severity\">{severity}</span> <code>{}</code> (line {}): {}</p>\n<pre class=\"excerpt\">",
        escape(d.code.as_str()),
        f.line,
        escape(&d.message)
    );
    marked(s, &f.excerpt.text, &d.labels);
    s.push_str("</pre>\n<ol class=\"labels\">\n");
    for l in &d.labels {
        let class = if l.primary { "primary" } else { "secondary" };
        let _ = writeln!(s, "<li class=\"{class}\">{}</li>", escape(&l.message));
    }
    s.push_str("</ol>\n");
    if let Some(help) = &d.help {
        let _ = writeln!(s, "<p class=\"help\">help: {}</p>", escape(help));
    }
    s.push_str("</div>\n");
}

/// Appends `text` with the characters of each label in a `<mark>` (the innermost label where
/// they nest), numbered where the label ends; a label on no character is a mark of no width.
fn marked(s: &mut String, text: &str, labels: &[Label]) {
    let floor = |mut at: usize| {
        at = at.min(text.len());
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        at
    };
    let spans: Vec<(usize, usize)> = labels.iter().map(|l| (floor(l.span.start), floor(l.span.end))).collect();
    let mut cuts: Vec<usize> = spans.iter().flat_map(|&(a, b)| [a, b]).chain([0, text.len()]).collect();
    cuts.sort_unstable();
    cuts.dedup();
    let class = |n: usize| if labels[n].primary { "primary" } else { "secondary" };
    for (i, &at) in cuts.iter().enumerate() {
        for n in (0..labels.len()).filter(|&n| spans[n] == (at, at)) {
            let _ = write!(
                s,
                "<mark class=\"point {}\" data-label=\"{}\" title=\"{}\"></mark>",
                class(n),
                n + 1,
                escape(&labels[n].message)
            );
        }
        let Some(&next) = cuts.get(i + 1) else { break };
        let piece = escape(&text[at..next]);
        let inner = (0..labels.len())
            .filter(|&n| spans[n].0 <= at && next <= spans[n].1 && spans[n].0 < spans[n].1)
            .min_by_key(|&n| spans[n].1 - spans[n].0);
        match inner {
            Some(n) => {
                let number = if spans[n].1 == next { format!(" data-label=\"{}\"", n + 1) } else { String::new() };
                let _ = write!(
                    s,
                    "<mark class=\"{}\"{number} title=\"{}\">{piece}</mark>",
                    class(n),
                    escape(&labels[n].message)
                );
            }
            None => s.push_str(&piece),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::codes;
    use crate::span::Span;

    #[test]
    fn a_finding_names_the_line_of_its_primary_label_and_marks_nested_labels() {
        // A game from line 10 of its file; the finding is on its third line, `P2j`.
        let text = "[Sente \"a\"]\n1. P7f P3d\n2. P2j\n";
        let d = Diagnostic::error(codes::psn::BAD_SQUARE, Span::new(27, 29), "`2j` is not a square")
            .label("off the board")
            .with(Span::new(26, 29), "in this move");
        let f = Finding::new(text, 10, &d);
        assert_eq!(f.line, 12);
        let mut s = String::new();
        finding(&mut s, &f);
        assert!(s.contains("(line 12)"), "{s}");
        // The innermost label marks `2j`, the move's other character the outer one.
        assert!(
            s.contains("<mark class=\"secondary\" title=\"in this move\">P</mark><mark class=\"primary\" data-label=\"1\" title=\"off the board\">2j</mark>"),
            "{s}"
        );
    }
}
