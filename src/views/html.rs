//! One self-contained HTML page of diagrams: inline SVG, inline CSS, and for games a move list
//! beside the board that steps through the positions with buttons and the arrow keys, in plain
//! inline JavaScript. Nothing is loaded from anywhere.

use std::fmt::Write as _;

use super::{escape, svg, Diagram, Names};

/// One section of the page, a record's: a heading, the record's text, and its diagram or its findings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    /// The heading: where the record is (`file:line`) or the game's name.
    pub title: String,
    /// The record as written (SFEN, FEN), shown under the heading.
    pub notation: Option<String>,
    /// The diagram, when the record could be read.
    pub diagram: Option<Diagram>,
    /// Findings to list (for a record without a diagram, why).
    pub findings: Vec<String>,
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
ul.findings{color:#a00;font-family:'DejaVu Sans Mono',monospace;font-size:13px}";

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
/// time, as `kifu board --html` does.
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
    if !record.findings.is_empty() {
        s.push_str("<ul class=\"findings\">\n");
        for f in &record.findings {
            let _ = writeln!(s, "<li>{}</li>", escape(f));
        }
        s.push_str("</ul>\n");
    }
    s.push_str("</section>\n");
    games
}
