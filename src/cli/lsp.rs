//! `kifu lsp`: a language server over standard input and output, for `.sfen`, `.fen`, `.epd`,
//! `.psn` and position `.json` files.
//!
//! It gives an editor what `kifu check` gives a terminal: every finding as a diagnostic (its
//! code, message, help, and its other labels as related information), each fix as a code
//! action (the safe one preferred), a hover with the position as a diagram (for a PSN move, the
//! position after it), formatting to the canonical form, and the games and headers of a PSN file
//! as document symbols.
//!
//! Documents are checked after the messages waiting have been read, so that a burst of typing
//! is checked once; a check of a long document stops between two records when a message
//! arrives, and starts again once it is read.

use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::process::ExitCode;
use std::sync::mpsc;

use kifu::diagnostic::excerpt::LineIndex;
use kifu::diagnostic::Diagnostic;
use kifu::format::Format;
use kifu::span::Span;
use kifu::{fen, psn, sfen};
use lsp_server::{Connection, Message, Notification, Request, Response};
use lsp_types as lsp;
use lsp_types::notification::Notification as _;
use lsp_types::request::Request as _;

use crate::output;

#[derive(clap::Args, Debug)]
pub(crate) struct LspArgs {
    /// Read and write the protocol on standard input and output (the only way, and the default:
    /// editors pass it).
    #[arg(long)]
    stdio: bool,
}

/// `kifu lsp`: serves until the editor says to exit.
pub(crate) fn run(_: &LspArgs) -> ExitCode {
    let (connection, io) = Connection::stdio();
    let result = serve(&connection);
    drop(connection);
    let joined = io.join();
    match result.and(joined.map_err(|e| e.to_string())) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            output::message(format_args!("kifu lsp: {e}"));
            ExitCode::from(2)
        }
    }
}

/// How positions count characters: UTF-16 code units (the protocol's default) or bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Encoding {
    Utf16,
    Utf8,
}

fn serve(connection: &Connection) -> Result<(), String> {
    let (id, params) = connection.initialize_start().map_err(|e| e.to_string())?;
    let params: lsp::InitializeParams = serde_json::from_value(params).map_err(|e| e.to_string())?;
    let utf8 = params
        .capabilities
        .general
        .and_then(|g| g.position_encodings)
        .is_some_and(|kinds| kinds.contains(&lsp::PositionEncodingKind::UTF8));
    let encoding = if utf8 { Encoding::Utf8 } else { Encoding::Utf16 };
    let capabilities = lsp::ServerCapabilities {
        position_encoding: Some(if utf8 { lsp::PositionEncodingKind::UTF8 } else { lsp::PositionEncodingKind::UTF16 }),
        text_document_sync: Some(lsp::TextDocumentSyncCapability::Options(lsp::TextDocumentSyncOptions {
            open_close: Some(true),
            change: Some(lsp::TextDocumentSyncKind::INCREMENTAL),
            ..lsp::TextDocumentSyncOptions::default()
        })),
        hover_provider: Some(lsp::HoverProviderCapability::Simple(true)),
        code_action_provider: Some(lsp::CodeActionProviderCapability::Options(lsp::CodeActionOptions {
            code_action_kinds: Some(vec![lsp::CodeActionKind::QUICKFIX]),
            ..lsp::CodeActionOptions::default()
        })),
        document_formatting_provider: Some(lsp::OneOf::Left(true)),
        document_symbol_provider: Some(lsp::OneOf::Left(true)),
        ..lsp::ServerCapabilities::default()
    };
    let result = serde_json::json!({
        "capabilities": capabilities,
        "serverInfo": { "name": "kifu", "version": env!("CARGO_PKG_VERSION") },
    });
    connection.initialize_finish(id, result).map_err(|e| e.to_string())?;
    let mut server =
        Server { connection, inbox: Inbox::new(connection), encoding, docs: HashMap::new(), shut_down: false };
    server.run().map_err(|e| e.to_string())
}

/// The messages from the editor, read on a thread of their own as they arrive, so that the
/// server can tell whether one waits (lsp-server hands them over one at a time, unbuffered).
struct Inbox {
    receiver: mpsc::Receiver<Message>,
    /// Messages taken from `receiver` to see that one waits, not yet handled.
    waiting: RefCell<VecDeque<Message>>,
}

impl Inbox {
    fn new(connection: &Connection) -> Self {
        let (send, receiver) = mpsc::channel();
        let from = connection.receiver.clone();
        std::thread::spawn(move || {
            for message in from {
                if send.send(message).is_err() {
                    break;
                }
            }
        });
        Self { receiver, waiting: RefCell::new(VecDeque::new()) }
    }

    /// The next message, waiting for one; `None` when the editor is gone.
    fn next(&self) -> Option<Message> {
        let waiting = self.waiting.borrow_mut().pop_front();
        waiting.or_else(|| self.receiver.recv().ok())
    }

    /// True when a message waits.
    fn has_waiting(&self) -> bool {
        if !self.waiting.borrow().is_empty() {
            return true;
        }
        match self.receiver.try_recv() {
            Ok(message) => {
                self.waiting.borrow_mut().push_back(message);
                true
            }
            Err(_) => false,
        }
    }
}

/// An open document.
struct Doc {
    uri: lsp::Uri,
    text: String,
    version: i32,
    format: Option<Format>,
    /// The findings of `text` (spans into it), when checked since its last change.
    findings: Option<Vec<Diagnostic>>,
}

struct Server<'a> {
    connection: &'a Connection,
    inbox: Inbox,
    encoding: Encoding,
    /// The editor asked to shut down: only `exit` is expected now.
    shut_down: bool,
    docs: HashMap<String, Doc>,
}

type Failed = Box<dyn std::error::Error + Send + Sync>;

impl Server<'_> {
    fn run(&mut self) -> Result<(), Failed> {
        while let Some(message) = self.inbox.next() {
            match message {
                Message::Request(request) if request.method == lsp::request::Shutdown::METHOD => {
                    self.shut_down = true;
                    self.connection.sender.send(Message::Response(Response::new_ok(request.id, ())))?;
                }
                Message::Request(request) if self.shut_down => {
                    let message = "kifu lsp is shutting down".to_owned();
                    let code = lsp_server::ErrorCode::InvalidRequest as i32;
                    self.connection.sender.send(Message::Response(Response::new_err(request.id, code, message)))?;
                }
                Message::Request(request) => self.request(request)?,
                Message::Notification(note) if note.method == lsp::notification::Exit::METHOD => return Ok(()),
                Message::Notification(note) => self.notification(note),
                Message::Response(_) => {}
            }
            // Check what changed once no message waits; a message that arrives stops the check.
            if !self.shut_down && !self.inbox.has_waiting() {
                self.publish()?;
            }
        }
        Ok(())
    }

    fn notification(&mut self, note: Notification) {
        match note.method.as_str() {
            lsp::notification::DidOpenTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<lsp::DidOpenTextDocumentParams>(note.params) else { return };
                let d = p.text_document;
                let format = format_of(&d.uri, &d.language_id);
                let key = d.uri.as_str().to_owned();
                self.docs.insert(key, Doc { uri: d.uri, text: d.text, version: d.version, format, findings: None });
            }
            lsp::notification::DidChangeTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<lsp::DidChangeTextDocumentParams>(note.params) else { return };
                let encoding = self.encoding;
                if let Some(doc) = self.docs.get_mut(p.text_document.uri.as_str()) {
                    for change in p.content_changes {
                        match change.range {
                            Some(range) => {
                                let index = LineIndex::new(&doc.text);
                                let start = offset(&doc.text, &index, range.start, encoding);
                                let end = offset(&doc.text, &index, range.end, encoding).max(start);
                                doc.text.replace_range(start..end, &change.text);
                            }
                            None => doc.text = change.text,
                        }
                    }
                    doc.version = p.text_document.version;
                    doc.findings = None;
                }
            }
            lsp::notification::DidCloseTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<lsp::DidCloseTextDocumentParams>(note.params) else { return };
                if let Some(doc) = self.docs.remove(p.text_document.uri.as_str()) {
                    // A closed document keeps no findings in the editor.
                    let _ = self.send_diagnostics(&doc.uri, Vec::new(), None);
                }
            }
            _ => {}
        }
    }

    /// Checks every document changed since it was last checked, and publishes its findings;
    /// stops (leaving the rest for later) when a message waits in the inbox.
    fn publish(&mut self) -> Result<(), Failed> {
        let keys: Vec<String> =
            self.docs.iter().filter(|(_, d)| d.findings.is_none()).map(|(k, _)| k.clone()).collect();
        for key in keys {
            let Some(doc) = self.docs.get_mut(&key) else { continue };
            let inbox = &self.inbox;
            let Some(findings) = check_document(doc.format, &doc.text, &|| inbox.has_waiting()) else { return Ok(()) };
            doc.findings = Some(findings);
            let doc = &self.docs[&key];
            let index = LineIndex::new(&doc.text);
            let found = doc.findings.as_deref().unwrap_or_default();
            let diagnostics = found.iter().map(|d| to_lsp(d, doc, &index, self.encoding)).collect();
            self.send_diagnostics(&doc.uri, diagnostics, Some(doc.version))?;
        }
        Ok(())
    }

    fn send_diagnostics(
        &self,
        uri: &lsp::Uri,
        diagnostics: Vec<lsp::Diagnostic>,
        version: Option<i32>,
    ) -> Result<(), Failed> {
        let params = lsp::PublishDiagnosticsParams { uri: uri.clone(), diagnostics, version };
        let note = Notification::new(lsp::notification::PublishDiagnostics::METHOD.to_owned(), params);
        self.connection.sender.send(Message::Notification(note))?;
        Ok(())
    }

    fn request(&mut self, request: Request) -> Result<(), Failed> {
        let id = request.id.clone();
        let result = match request.method.as_str() {
            lsp::request::HoverRequest::METHOD => {
                self.with_params::<lsp::HoverParams>(request, |s, p| s.hover(&p.text_document_position_params))
            }
            lsp::request::CodeActionRequest::METHOD => {
                self.with_params::<lsp::CodeActionParams>(request, |s, p| s.code_actions(&p))
            }
            lsp::request::Formatting::METHOD => {
                self.with_params::<lsp::DocumentFormattingParams>(request, |s, p| s.format(&p.text_document.uri))
            }
            lsp::request::DocumentSymbolRequest::METHOD => {
                self.with_params::<lsp::DocumentSymbolParams>(request, |s, p| s.symbols(&p.text_document.uri))
            }
            _ => Err((lsp_server::ErrorCode::MethodNotFound, format!("kifu does not answer `{}`", request.method))),
        };
        let response = match result {
            Ok(value) => Response::new_ok(id, value),
            Err((code, message)) => Response::new_err(id, code as i32, message),
        };
        self.connection.sender.send(Message::Response(response))?;
        Ok(())
    }

    fn with_params<P: serde::de::DeserializeOwned>(
        &mut self,
        request: Request,
        answer: impl FnOnce(&mut Self, P) -> serde_json::Value,
    ) -> Result<serde_json::Value, (lsp_server::ErrorCode, String)> {
        let params = serde_json::from_value::<P>(request.params)
            .map_err(|e| (lsp_server::ErrorCode::InvalidParams, format!("invalid parameters: {e}")))?;
        Ok(answer(self, params))
    }

    /// The document at `uri`, checked (a request answers about the text as it is now).
    fn checked(&mut self, uri: &lsp::Uri) -> Option<&Doc> {
        let doc = self.docs.get_mut(uri.as_str())?;
        if doc.findings.is_none() {
            doc.findings = check_document(doc.format, &doc.text, &|| false);
        }
        self.docs.get(uri.as_str())
    }

    fn hover(&mut self, at: &lsp::TextDocumentPositionParams) -> serde_json::Value {
        let encoding = self.encoding;
        let Some(doc) = self.docs.get(at.text_document.uri.as_str()) else { return serde_json::Value::Null };
        let index = LineIndex::new(&doc.text);
        let cursor = offset(&doc.text, &index, at.position, encoding);
        let Some((span, diagram)) = doc.format.and_then(|f| diagram_at(f, &doc.text, &index, cursor)) else {
            return serde_json::Value::Null;
        };
        let hover = lsp::Hover {
            contents: lsp::HoverContents::Markup(lsp::MarkupContent {
                kind: lsp::MarkupKind::Markdown,
                value: format!("```text\n{diagram}```"),
            }),
            range: Some(range(&doc.text, &index, span, encoding)),
        };
        serde_json::to_value(hover).unwrap_or_default()
    }

    fn code_actions(&mut self, p: &lsp::CodeActionParams) -> serde_json::Value {
        let encoding = self.encoding;
        let Some(doc) = self.checked(&p.text_document.uri) else { return serde_json::Value::Null };
        let index = LineIndex::new(&doc.text);
        let (start, end) =
            (offset(&doc.text, &index, p.range.start, encoding), offset(&doc.text, &index, p.range.end, encoding));
        let mut actions = Vec::new();
        for d in doc.findings.iter().flatten() {
            let span = d.span();
            if span.start > end || span.end < start {
                continue;
            }
            let lsp_diagnostic = to_lsp(d, doc, &index, encoding);
            for fix in &d.fixes {
                let edits = fix
                    .edits
                    .iter()
                    .map(|e| lsp::TextEdit {
                        range: range(&doc.text, &index, e.span, encoding),
                        new_text: e.replacement.clone(),
                    })
                    .collect();
                let safe = d.safe_fix().is_some();
                actions.push(lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
                    title: fix_title(&doc.text, fix),
                    kind: Some(lsp::CodeActionKind::QUICKFIX),
                    diagnostics: Some(vec![lsp_diagnostic.clone()]),
                    edit: Some(lsp::WorkspaceEdit {
                        changes: Some(HashMap::from([(doc.uri.clone(), edits)])),
                        ..lsp::WorkspaceEdit::default()
                    }),
                    is_preferred: Some(safe),
                    ..lsp::CodeAction::default()
                }));
            }
        }
        serde_json::to_value(actions).unwrap_or_default()
    }

    fn format(&mut self, uri: &lsp::Uri) -> serde_json::Value {
        let encoding = self.encoding;
        let Some(doc) = self.docs.get(uri.as_str()) else { return serde_json::Value::Null };
        let index = LineIndex::new(&doc.text);
        let edits: Vec<lsp::TextEdit> = doc
            .format
            .map(|f| canonical(f, &doc.text, &index))
            .unwrap_or_default()
            .into_iter()
            .map(|(span, new_text)| lsp::TextEdit { range: range(&doc.text, &index, span, encoding), new_text })
            .collect();
        serde_json::to_value(edits).unwrap_or_default()
    }

    fn symbols(&mut self, uri: &lsp::Uri) -> serde_json::Value {
        let encoding = self.encoding;
        let Some(doc) = self.docs.get(uri.as_str()) else { return serde_json::Value::Null };
        if doc.format != Some(Format::Psn) {
            return serde_json::Value::Array(Vec::new());
        }
        let index = LineIndex::new(&doc.text);
        let at = |span: Span| range(&doc.text, &index, span, encoding);
        #[allow(deprecated)] // `deprecated` is a field the protocol has deprecated, not this code
        let symbols: Vec<lsp::DocumentSymbol> = games(&doc.text, psn::Options { strict: false, replay: false })
            .iter()
            .map(|(base, g)| {
                let base = *base;
                let headers = g
                    .game
                    .headers
                    .iter()
                    .map(|h| lsp::DocumentSymbol {
                        name: h.key.to_string(),
                        detail: Some(h.value.to_string()),
                        kind: lsp::SymbolKind::PROPERTY,
                        tags: None,
                        deprecated: None,
                        range: at(h.span.shift(base)),
                        selection_range: at(h.span.shift(base)),
                        children: None,
                    })
                    .collect();
                let players = [("Sente", "Gote"), ("Black", "White")]
                    .iter()
                    .find_map(|(a, b)| Some(format!("{} – {}", g.game.header(a)?, g.game.header(b)?)));
                lsp::DocumentSymbol {
                    name: players.unwrap_or_else(|| format!("Game at line {}", g.game.line)),
                    detail: Some(format!("{} moves, {}", g.game.moves.len(), psn::dialect::title(g.game.dialect))),
                    kind: lsp::SymbolKind::NAMESPACE,
                    tags: None,
                    deprecated: None,
                    range: at(Span::new(base, base + g.game.span.len())),
                    selection_range: at(Span::new(base, base)),
                    children: Some(headers),
                }
            })
            .collect();
        serde_json::to_value(symbols).unwrap_or_default()
    }
}

/// The format of a document: its path's extension, else the language the editor names.
fn format_of(uri: &lsp::Uri, language: &str) -> Option<Format> {
    Format::from_path(uri.path().as_str()).or_else(|| language.parse().ok())
}

/// The byte offset of `at` in `text` (positions past a line's end are its end).
fn offset(text: &str, index: &LineIndex, at: lsp::Position, encoding: Encoding) -> usize {
    let line = at.line as usize;
    if line >= index.lines() {
        return text.len();
    }
    let span = index.line_span(text, line);
    let mut units = at.character as usize;
    let mut at_byte = span.start;
    for c in span.slice(text).chars() {
        let width = if encoding == Encoding::Utf8 { c.len_utf8() } else { c.len_utf16() };
        if units < width {
            break;
        }
        units -= width;
        at_byte += c.len_utf8();
    }
    at_byte
}

/// The position of byte `at` of `text`.
fn position(text: &str, index: &LineIndex, at: usize, encoding: Encoding) -> lsp::Position {
    let at = at.min(text.len());
    let line = index.line_of(at);
    let start = index.line_span(text, line).start;
    let before = text.get(start..at).unwrap_or("");
    let character = match encoding {
        Encoding::Utf8 => before.len(),
        Encoding::Utf16 => before.encode_utf16().count(),
    };
    lsp::Position::new(u32::try_from(line).unwrap_or(u32::MAX), u32::try_from(character).unwrap_or(u32::MAX))
}

fn range(text: &str, index: &LineIndex, span: Span, encoding: Encoding) -> lsp::Range {
    lsp::Range::new(position(text, index, span.start, encoding), position(text, index, span.end, encoding))
}

/// A finding as the protocol writes it: the help after the message, the labels (the primary
/// one's words included) as related information.
fn to_lsp(d: &Diagnostic, doc: &Doc, index: &LineIndex, encoding: Encoding) -> lsp::Diagnostic {
    let message = match &d.help {
        Some(help) => format!("{}\nhelp: {help}", d.message),
        None => d.message.clone(),
    };
    let related = d
        .labels
        .iter()
        .filter(|l| !l.message.is_empty())
        .map(|l| lsp::DiagnosticRelatedInformation {
            location: lsp::Location { uri: doc.uri.clone(), range: range(&doc.text, index, l.span, encoding) },
            message: l.message.clone(),
        })
        .collect::<Vec<_>>();
    lsp::Diagnostic {
        range: range(&doc.text, index, d.span(), encoding),
        severity: Some(if d.is_error() { lsp::DiagnosticSeverity::ERROR } else { lsp::DiagnosticSeverity::WARNING }),
        code: Some(lsp::NumberOrString::String(d.code.to_string())),
        source: Some("kifu".to_owned()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        ..lsp::Diagnostic::default()
    }
}

/// What a fix does, in a few words: "Replace `L` with `2`", "Insert `1`", "Delete `b`".
fn fix_title(text: &str, fix: &kifu::Fix) -> String {
    let shown = |s: &str| kifu::diagnostic::escape_unsafe(s).into_owned();
    let words: Vec<String> = fix
        .edits
        .iter()
        .map(|e| {
            let old = e.span.slice(text);
            match (old.is_empty(), e.replacement.is_empty()) {
                (true, _) => format!("Insert `{}`", shown(&e.replacement)),
                (false, true) => format!("Delete `{}`", shown(old)),
                (false, false) => format!("Replace `{}` with `{}`", shown(old), shown(&e.replacement)),
            }
        })
        .collect();
    words.join(", then ")
}

/// The bytes of a byte-order mark at the start of `text`: 3 or 0. The library reads a text
/// without it, and its spans start after it.
fn bom(text: &str) -> usize {
    if text.starts_with('\u{feff}') {
        3
    } else {
        0
    }
}

/// The games of a PSN document, read and checked, each with where its text starts in the
/// document (the library's spans are in the text without a byte-order mark).
fn games(text: &str, options: psn::Options) -> Vec<(usize, psn::CheckedGame)> {
    let shift = bom(text);
    let file = psn::check_bytes(text.as_bytes(), options);
    // A game whose text is not where the stream found it (after a game too long to read) is
    // added at the end of the library's text, past the document's.
    file.games
        .into_iter()
        .filter(|g| g.game.span.end + shift <= text.len())
        .map(|g| (g.game.span.start + shift, g))
        .collect()
}

/// Where line `line` (1-based) of `text` starts, after a byte-order mark.
fn line_start(text: &str, index: &LineIndex, line: usize) -> usize {
    let start = index.line_span(text, line.saturating_sub(1)).start;
    if line <= 1 {
        start + bom(text)
    } else {
        start
    }
}

/// The records of a line format in `text`: each line's span (the first without a byte-order
/// mark), without blank lines (as `kifu check` skips them).
fn lines<'a>(text: &'a str, index: &'a LineIndex) -> impl Iterator<Item = (usize, Span)> + 'a {
    let first = Span::new(bom(text), index.line_span(text, 0).end.max(bom(text)));
    (0..index.lines())
        .map(move |i| (i, if i == 0 { first } else { index.line_span(text, i) }))
        .filter(move |(_, span)| !kifu::input::is_blank(span.slice(text).as_bytes(), span.len()))
}

/// Every finding of a document, with spans into its text, as `kifu check` finds them in a file
/// holding it; `None` when `waiting` says a message waits before the check is done.
fn check_document(format: Option<Format>, text: &str, waiting: &dyn Fn() -> bool) -> Option<Vec<Diagnostic>> {
    let Some(format) = format else { return Some(Vec::new()) };
    let mut out = Vec::new();
    match format {
        Format::Psn => {
            // Game by game, as `kifu check` reads them; each game's findings are in its own
            // text, which starts where the stream found it (a game too long to read: at its
            // first line), in the text without its byte-order mark.
            let index = LineIndex::new(text);
            for item in psn::stream::Games::new(text.as_bytes()) {
                if waiting() {
                    return None;
                }
                // Reading a text in memory cannot fail.
                let Ok(item) = item else { break };
                let first_line = match &item {
                    psn::stream::Item::TooLong { line, .. } => Some(line_start(text, &index, *line)),
                    psn::stream::Item::Game { .. } => None,
                };
                let game = item.check(psn::Options::default());
                let start = first_line.unwrap_or(game.offset + bom(text));
                out.extend(game.checked.diagnostics.into_iter().map(|d| d.shifted(start)));
            }
        }
        Format::Json => {
            // Reading a text in memory fails only when the check is stopped.
            let index = LineIndex::new(text);
            let read = kifu::json::each_record(text.as_bytes(), &mut |at, record, notes| {
                if waiting() {
                    return Err(std::io::Error::other("a message waits"));
                }
                let start = line_start(text, &index, at.line);
                out.extend(kifu::json::findings_of(record, notes).into_iter().map(|d| d.shifted(start)));
                Ok(())
            });
            if read.is_err() {
                return None;
            }
        }
        _ => {
            let index = LineIndex::new(text);
            for (number, span) in lines(text, &index) {
                if waiting() {
                    return None;
                }
                // The first line is checked with its byte-order mark, which gets its warning as
                // in a file; the spans are after it.
                let from = if number == 0 { 0 } else { span.start };
                let bytes = &text.as_bytes()[from..span.end];
                let report = kifu::check::check_line(format, number + 1, bytes, bytes.len());
                out.extend(report.diagnostics.into_iter().map(|d| d.shifted(span.start)));
            }
        }
    }
    Some(out)
}

/// The position a hover at byte `cursor` shows, with the span it is about: the record's (a
/// line record, a JSON position) or a PSN move's (the position after it).
fn diagram_at(format: Format, text: &str, index: &LineIndex, cursor: usize) -> Option<(Span, String)> {
    match format {
        Format::Psn => {
            let all = games(text, psn::Options::default());
            let (start, game) =
                all.iter().find(|(start, g)| *start <= cursor && cursor <= start + g.game.span.len())?;
            let at = cursor - start;
            let i = game.game.moves.iter().position(|m| m.mv.span.start <= at && at <= m.mv.span.end)?;
            let after = game.replay.as_ref()?.positions().into_iter().nth(i)?;
            Some((game.game.moves[i].mv.span.shift(*start), shogi_diagram(&after)))
        }
        Format::Json => {
            let mut found = None;
            let _ = kifu::json::each_record(text.as_bytes(), &mut |at, record, _| {
                let start = line_start(text, index, at.line);
                if let Ok(node) = record {
                    let span = node.span.shift(start);
                    if span.start <= cursor && cursor <= span.end {
                        let diagram = match kifu::json::read(node) {
                            kifu::json::Model::Shogi(c) => c.position.map(|p| shogi_diagram(&p)),
                            kifu::json::Model::Chess(c) => c.position.map(|p| chess_diagram(&p)),
                        };
                        found = diagram.map(|d| (span, d));
                    }
                }
                Ok(())
            });
            found
        }
        _ => {
            let line = index.line_of(cursor);
            let (_, span) = lines(text, index).find(|(i, _)| *i == line)?;
            let record = span.slice(text);
            let diagram = match format {
                Format::Sfen(choice) => sfen::check(record, choice).position.map(|p| shogi_diagram(&p)),
                Format::Fen(d) => fen::check(record, fen::Kind::Fen, d).position.map(|p| chess_diagram(&p)),
                Format::Epd(d) => fen::check(record, fen::Kind::Epd, d).position.map(|p| chess_diagram(&p)),
                _ => None,
            }?;
            Some((span, diagram))
        }
    }
}

fn shogi_diagram(p: &kifu::shogi::Position) -> String {
    kifu::views::text::shogi(p, kifu::views::text::Style::Unicode)
}

fn chess_diagram(p: &kifu::chess::Position) -> String {
    let side = if p.side == kifu::chess::Color::White { "White" } else { "Black" };
    format!("{}{side} to move, move {}\n", p.diagram(), p.fullmove)
}

/// The edits that write each valid record in its canonical form: SFEN in its dialect's, FEN
/// and PSN as kifu writes them. Invalid records, EPD and JSON are left as they are.
fn canonical(format: Format, text: &str, index: &LineIndex) -> Vec<(Span, String)> {
    let mut edits = Vec::new();
    match format {
        Format::Sfen(choice) => {
            for (_, span) in lines(text, index) {
                let record = span.slice(text);
                let checked = sfen::check(record, choice);
                if !checked.is_valid() {
                    continue;
                }
                let dialect = checked.record.dialect;
                if let (Some(p), Some(d)) = (checked.position, dialect) {
                    if let Ok(written) = p.to_sfen(d) {
                        if written != record {
                            edits.push((span, written));
                        }
                    }
                }
            }
        }
        Format::Fen(dialect) => {
            for (_, span) in lines(text, index) {
                let record = span.slice(text);
                let checked = fen::check(record, fen::Kind::Fen, dialect);
                let valid = checked.is_valid();
                if let Some(written) = checked.position.filter(|_| valid).map(|p| p.to_string()) {
                    if written != record {
                        edits.push((span, written));
                    }
                }
            }
        }
        Format::Psn => {
            for (start, g) in games(text, psn::Options::default()).iter().filter(|(_, g)| g.is_valid()) {
                let written = psn::display::to_psn(&g.game, g.replay.as_ref());
                let written = written.trim_end_matches('\n');
                let span = Span::new(*start, start + g.game.span.len());
                if written != span.slice(text) {
                    edits.push((span, written.to_owned()));
                }
            }
        }
        _ => {}
    }
    edits
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHORT: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN b - 1";

    #[test]
    fn a_check_stops_between_records_when_a_message_waits() {
        let text = format!("{SHORT}\n").repeat(50);
        let sfen = Some(Format::Sfen(sfen::DialectChoice::Auto));
        assert_eq!(check_document(sfen, &text, &|| false).map(|f| f.len()), Some(50));
        assert!(check_document(sfen, &text, &|| true).is_none());
        // A message that arrives after ten records stops the check there.
        let asked = std::cell::Cell::new(0);
        let after_ten = || {
            asked.set(asked.get() + 1);
            asked.get() > 10
        };
        assert!(check_document(sfen, &text, &after_ten).is_none());
        assert_eq!(asked.get(), 11, "asked once a record, and not after it stopped");
        let json = "{\"sideOnMove\":\"black\"}\n".repeat(5);
        assert!(check_document(Some(Format::Json), &json, &|| true).is_none());
        let psn = "[Sente \"A\"]\n1. P7f P7f\n\n".repeat(5);
        assert!(check_document(Some(Format::Psn), &psn, &|| true).is_none());
        let found = check_document(Some(Format::Psn), &psn, &|| false).unwrap_or_default();
        let errors: Vec<Span> = found.iter().filter(|d| d.is_error()).map(Diagnostic::span).collect();
        assert_eq!(errors.len(), 5, "{found:?}");
        for (i, span) in errors.iter().enumerate() {
            assert_eq!(span.slice(&psn), "P7f");
            assert_eq!(span.start, i * 24 + 19, "the second move of game {i}");
        }
    }

    #[test]
    fn the_inbox_tells_that_a_message_waits_and_keeps_it() {
        let (server, client) = Connection::memory();
        let inbox = Inbox::new(&server);
        assert!(!inbox.has_waiting());
        let note = |n: i32| Message::Notification(Notification::new(format!("note/{n}"), n));
        for n in 0..3 {
            client.sender.send(note(n)).expect("the server side reads");
        }
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while !inbox.has_waiting() {
            assert!(std::time::Instant::now() < deadline, "the message reaches the inbox");
            std::thread::yield_now();
        }
        for n in 0..3 {
            match inbox.next() {
                Some(Message::Notification(got)) => assert_eq!(got.method, format!("note/{n}"), "in order"),
                other => panic!("{other:?}"),
            }
        }
    }
}
