//! The language server `kifu lsp` runs (on standard input and output; [`serve`] takes any
//! reader and writer), for `.sfen`, `.fen`, `.epd`, `.psn`, KIF and KI2, `.csa`, `.jkf` and
//! position `.json` files.
//!
//! It gives an editor what `kifu check` gives a terminal: every finding as a diagnostic (its
//! code, message, help, and its other labels as related information), each fix as a code
//! action (the safe one preferred), a hover with the position as a diagram (for a move of a PSN
//! game or a KIF, KI2, CSA or JKF record, the position after it), formatting to the canonical
//! form, and the games and headers of a PSN file as document symbols.
//!
//! Documents are checked after the messages waiting have been read, so that a burst of typing
//! is checked once; a check of a long document stops between two records when a message
//! arrives, and starts again once it is read.

use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::io::{self, BufRead as _, Read as _};
use std::sync::mpsc;

use lsp_server::{Connection, Message, Notification, Request, Response};
use lsp_types as lsp;
use lsp_types::notification::Notification as _;
use lsp_types::request::Request as _;
use ropey::Rope;

use crate::diagnostic::config::{Selector, Source};
use crate::diagnostic::excerpt::LineIndex;
use crate::diagnostic::select::Selection;
use crate::diagnostic::Diagnostic;
use crate::format::Format;
use crate::span::Span;
use crate::views::Diagram;
use crate::{document, psn};

/// Serves an editor that writes to `input` and reads `output`, until it says to exit or its
/// input ends: whether it asked the server to shut down first (the protocol's exit status is 0
/// then, and 1 when it did not). `log` is told of what the server skipped (a message that is not
/// JSON-RPC). The error is what broke the input or the output, or the protocol.
///
/// Memory stays bounded whatever `input` holds: a message is read only up to 64 MiB, a header
/// line up to 1 KiB; a document gets at most 1,000 diagnostics and an outline of at most 2,000
/// games.
pub fn serve<R, W, L>(input: R, output: W, log: L) -> Result<bool, String>
where
    R: io::Read + Send + 'static,
    W: io::Write + Send + 'static,
    L: Fn(std::fmt::Arguments<'_>) + Send + 'static,
{
    let (connection, client) = Connection::memory();
    let Connection { sender: to_server, receiver: from_server } = client;
    // What broke the input, kept before the server's channel closes: it says more than the
    // server's lost channel. The reader, when the editor left without a word, may still wait on
    // its input, and is left to end with it.
    let read_error = std::sync::Arc::new(std::sync::Mutex::new(None));
    let reader_error = std::sync::Arc::clone(&read_error);
    std::thread::spawn(move || {
        let read = read_messages(io::BufReader::new(input), |m| to_server.send(m).is_ok(), log);
        if let Err(e) = read {
            *reader_error.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(e.to_string());
        }
        drop(to_server);
    });
    let writer = std::thread::spawn(move || {
        let mut out = output;
        from_server.into_iter().try_for_each(|message| message.write(&mut out))?;
        out.flush()
    });
    let result = serve_connection(&connection);
    drop(connection);
    // Everything the server sent is written before the status.
    let written = writer.join().unwrap_or_else(|_| Err(io::Error::other("a thread of kifu lsp panicked")));
    if let Some(e) = read_error.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take() {
        return Err(e);
    }
    written.map_err(|e| e.to_string())?;
    result
}

/// The most findings of a document an editor is sent: a document of junk has one or more a
/// line, and the editor's memory and the message's size would grow with it. One more says how
/// many were left out.
const MAX_DIAGNOSTICS: usize = 1000;

/// The most games of a PSN document its outline lists.
const MAX_SYMBOLS: usize = 2000;

/// The diagnostic that closes a document's list when `n` findings were left out, on the last
/// one shown (`last`).
fn left_out(n: usize, last: &lsp::Diagnostic) -> lsp::Diagnostic {
    lsp::Diagnostic {
        range: last.range,
        severity: Some(lsp::DiagnosticSeverity::INFORMATION),
        code: Some(lsp::NumberOrString::String(crate::diagnostic::codes::input::TOO_MANY_FINDINGS.to_string())),
        source: Some("kifu".to_owned()),
        message: format!(
            "{n} more findings in this document are not shown: fix these, or run `kifu check` for every one"
        ),
        ..lsp::Diagnostic::default()
    }
}

/// The largest message kifu lsp reads (its `Content-Length`): a larger one ends the server with
/// an error, before anything is held.
const MAX_MESSAGE: usize = 64 << 20;

/// The longest header line of a message.
const MAX_HEADER_LINE: u64 = 1024;

/// Reads the editor's messages from `input` and hands each to the server (`to`, false once the
/// server is gone), until the `exit` notification or the end of the input. A message is read
/// only when its `Content-Length` is at most [`MAX_MESSAGE`], and a header line only up to
/// [`MAX_HEADER_LINE`] bytes: memory stays bounded whatever the input (an endless line, a
/// length of a terabyte).
fn read_messages(
    mut input: impl io::BufRead,
    to: impl Fn(Message) -> bool,
    log: impl Fn(std::fmt::Arguments<'_>),
) -> io::Result<()> {
    while let Some(length) = read_header(&mut input)? {
        if length > MAX_MESSAGE {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("a message of {length} bytes is larger than the {} MiB kifu reads", MAX_MESSAGE >> 20),
            ));
        }
        let mut body = vec![0; length];
        input.read_exact(&mut body)?;
        let message: Message = match serde_json::from_slice(&body) {
            Ok(message) => message,
            Err(e) => {
                log(format_args!("kifu lsp: a message that is not JSON-RPC was skipped: {e}"));
                continue;
            }
        };
        let exit = matches!(&message, Message::Notification(n) if n.method == lsp::notification::Exit::METHOD);
        if !to(message) || exit {
            break;
        }
    }
    Ok(())
}

/// The `Content-Length` of the next message's header; `None` at the end of the input.
fn read_header(input: &mut impl io::BufRead) -> io::Result<Option<usize>> {
    let invalid = |what: &str| io::Error::new(io::ErrorKind::InvalidData, format!("a message header {what}"));
    let mut length = None;
    loop {
        let mut line = Vec::new();
        if (&mut *input).take(MAX_HEADER_LINE).read_until(b'\n', &mut line)? == 0 {
            return match length {
                None => Ok(None),
                Some(_) => Err(invalid("ends with the input")),
            };
        }
        let Some(line) = line.strip_suffix(b"\r\n") else {
            return Err(invalid(&format!("line does not end with CR LF within {MAX_HEADER_LINE} bytes")));
        };
        if line.is_empty() {
            return length.map(Some).ok_or_else(|| invalid("has no Content-Length"));
        }
        let text = String::from_utf8_lossy(line);
        if let Some((name, value)) = text.split_once(':') {
            if name.trim().eq_ignore_ascii_case("content-length") {
                length =
                    Some(value.trim().parse::<usize>().map_err(|_| invalid("has a Content-Length that is no size"))?);
            }
        }
    }
}

/// How positions count characters: UTF-16 code units (the protocol's default) or bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Encoding {
    Utf16,
    Utf8,
}

/// Serves the editor until it says to exit: whether it asked the server to shut down first.
fn serve_connection(connection: &Connection) -> Result<bool, String> {
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
    server.run().map_err(|e| e.to_string())?;
    Ok(server.shut_down)
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
    /// Which findings are reported: as the configuration nearest the document's file says
    /// (read when it is opened).
    selection: Selection,
    /// The findings of `text` (spans into it), when checked since its last change.
    findings: Option<Vec<Diagnostic>>,
    /// The findings of `text` were sent to the editor (a request may have checked it first).
    published: bool,
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
                let selection = self.selection(&d.uri);
                let key = d.uri.as_str().to_owned();
                let doc = Doc {
                    uri: d.uri,
                    text: d.text,
                    version: d.version,
                    format,
                    selection,
                    findings: None,
                    published: false,
                };
                self.docs.insert(key, doc);
            }
            lsp::notification::DidChangeTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<lsp::DidChangeTextDocumentParams>(note.params) else { return };
                let encoding = self.encoding;
                if let Some(doc) = self.docs.get_mut(p.text_document.uri.as_str()) {
                    apply_changes(&mut doc.text, p.content_changes, encoding);
                    doc.version = p.text_document.version;
                    doc.findings = None;
                    doc.published = false;
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

    /// The selection of findings for the document at `uri`: that of the configuration nearest
    /// its file (read anew, so that an edited `kifu.toml` counts from the next document
    /// opened). A configuration that cannot be read is said in a message, and every finding
    /// is reported.
    fn selection(&mut self, uri: &lsp::Uri) -> Selection {
        let Some(path) = file_path(uri) else { return Selection::default() };
        match Selector::new(Selection::default(), Source::Nearest).for_path(&path) {
            Ok(selection) => selection,
            Err(e) => {
                let params = lsp::ShowMessageParams { typ: lsp::MessageType::ERROR, message: format!("kifu: {e}") };
                let note = Notification::new(lsp::notification::ShowMessage::METHOD.to_owned(), params);
                // A message the editor cannot take ends the session at the next send.
                let _ = self.connection.sender.send(Message::Notification(note));
                Selection::default()
            }
        }
    }

    /// Checks every document changed since its findings were last published (unless a request
    /// checked it already), and publishes them; stops (leaving the rest for later) when a
    /// message waits in the inbox.
    fn publish(&mut self) -> Result<(), Failed> {
        let keys: Vec<String> = self.docs.iter().filter(|(_, d)| !d.published).map(|(k, _)| k.clone()).collect();
        for key in keys {
            let Some(doc) = self.docs.get_mut(&key) else { continue };
            if doc.findings.is_none() {
                let inbox = &self.inbox;
                let Some(findings) = check_document(doc, &|| inbox.has_waiting()) else {
                    return Ok(());
                };
                doc.findings = Some(findings);
            }
            doc.published = true;
            let doc = &self.docs[&key];
            let index = LineIndex::new(&doc.text);
            let found = doc.findings.as_deref().unwrap_or_default();
            let mut diagnostics: Vec<lsp::Diagnostic> =
                found.iter().take(MAX_DIAGNOSTICS).map(|d| to_lsp(d, doc, &index, self.encoding)).collect();
            if found.len() > MAX_DIAGNOSTICS {
                diagnostics.push(left_out(found.len() - MAX_DIAGNOSTICS, &diagnostics[MAX_DIAGNOSTICS - 1]));
            }
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
            doc.findings = check_document(doc, &|| false);
        }
        self.docs.get(uri.as_str())
    }

    fn hover(&mut self, at: &lsp::TextDocumentPositionParams) -> serde_json::Value {
        let encoding = self.encoding;
        let Some(doc) = self.docs.get(at.text_document.uri.as_str()) else { return serde_json::Value::Null };
        let index = LineIndex::new(&doc.text);
        let cursor = offset(&doc.text, &index, at.position, encoding);
        let Some((span, diagram)) = doc.format.and_then(|f| document::diagram_at(f, &doc.text, cursor)) else {
            return serde_json::Value::Null;
        };
        let diagram = match diagram {
            Diagram::Chess(p, _) => chess_diagram(&p),
            shogi => shogi.text(crate::views::text::Style::Unicode).unwrap_or_default(),
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
        // As many findings as a document's diagnostics show, so that one answer stays bounded.
        let in_range = doc.findings.iter().flatten().filter(|d| d.span().start <= end && d.span().end >= start);
        for d in in_range.take(MAX_DIAGNOSTICS) {
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
            .map(|f| document::canonical(f, &doc.text))
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
        let symbols: Vec<lsp::DocumentSymbol> =
            document::games(&doc.text, psn::Options { strict: false, replay: false })
                .iter()
                .take(MAX_SYMBOLS)
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
                        detail: Some(format!("{} moves, {}", g.game.moves.len(), g.game.dialect.title())),
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

/// The findings of a document its selection reports (none when its format is not known), or
/// `None` when `stop` says to stop first.
fn check_document(doc: &Doc, stop: &dyn Fn() -> bool) -> Option<Vec<Diagnostic>> {
    let Some(format) = doc.format else { return Some(Vec::new()) };
    let mut found = document::check(format, &doc.text, stop)?;
    doc.selection.apply(&mut found);
    Some(found)
}

/// The file a `file:` URI names (its path, percent-decoded), when it names one.
fn file_path(uri: &lsp::Uri) -> Option<String> {
    if !uri.scheme().is_some_and(|s| s.as_str().eq_ignore_ascii_case("file")) {
        return None;
    }
    let raw = uri.path().as_str().as_bytes();
    let hex = |b: Option<&u8>| b.and_then(|&b| char::from(b).to_digit(16));
    let mut bytes = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        match (raw[i], hex(raw.get(i + 1)), hex(raw.get(i + 2))) {
            (b'%', Some(high), Some(low)) => {
                bytes.push((high * 16 + low) as u8);
                i += 3;
            }
            (b, ..) => {
                bytes.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(bytes).ok()
}

fn chess_diagram(p: &crate::chess::Position) -> String {
    let side = if p.side == crate::chess::Color::White { "White" } else { "Black" };
    format!("{}{side} to move, move {}\n", p.diagram(), p.fullmove)
}

/// The format of a document: its path's extension, else the language the editor names.
fn format_of(uri: &lsp::Uri, language: &str) -> Option<Format> {
    Format::from_path(uri.path().as_str()).or_else(|| language.parse().ok())
}

/// Applies an editor's `changes` to `text`, in order. The edits of ranges go to a rope made
/// once, where each costs the time of its own size, not of the document's.
fn apply_changes(text: &mut String, changes: Vec<lsp::TextDocumentContentChangeEvent>, encoding: Encoding) {
    let mut rope: Option<Rope> = None;
    for change in changes {
        match change.range {
            Some(range) => {
                let rope = rope.get_or_insert_with(|| Rope::from_str(text));
                let start = char_at(rope, range.start, encoding);
                let end = char_at(rope, range.end, encoding).max(start);
                rope.remove(start..end);
                rope.insert(start, &change.text);
            }
            None => {
                rope = None;
                *text = change.text;
            }
        }
    }
    if let Some(rope) = rope {
        *text = rope.to_string();
    }
}

/// The character index of `at` in `rope`, as [`offset`] places it: a position past a line's
/// end is its end, one inside a character is that character's start.
fn char_at(rope: &Rope, at: lsp::Position, encoding: Encoding) -> usize {
    let line = at.line as usize;
    if line >= rope.len_lines() {
        return rope.len_chars();
    }
    let whole = rope.line(line);
    let mut len = whole.len_chars();
    while len > 0 && matches!(whole.char(len - 1), '\n' | '\r') {
        len -= 1;
    }
    let content = whole.slice(..len);
    let units = at.character as usize;
    let within = match encoding {
        Encoding::Utf16 if units < content.len_utf16_cu() => content.utf16_cu_to_char(units),
        Encoding::Utf8 if units < content.len_bytes() => content.byte_to_char(units),
        _ => len,
    };
    rope.line_to_char(line) + within
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

/// What a fix does, in a few words: "Replace `L` with `2`", "Insert `1` after `N`", "Delete
/// `b`". An insertion names the character it follows (or precedes, at the start of the text),
/// so that two insertions of one character at different places read apart.
fn fix_title(text: &str, fix: &crate::Fix) -> String {
    let shown = |s: &str| crate::diagnostic::escape_unsafe(s).into_owned();
    let words: Vec<String> = fix
        .edits
        .iter()
        .map(|e| {
            let old = e.span.slice(text);
            match (old.is_empty(), e.replacement.is_empty()) {
                (true, _) => {
                    let before = text.get(..e.span.start).and_then(|t| t.chars().last());
                    let after = text.get(e.span.end..).and_then(|t| t.chars().next());
                    match (before, after) {
                        (Some(c), _) => format!("Insert `{}` after `{}`", shown(&e.replacement), shown(&c.to_string())),
                        (None, Some(c)) => {
                            format!("Insert `{}` before `{}`", shown(&e.replacement), shown(&c.to_string()))
                        }
                        (None, None) => format!("Insert `{}`", shown(&e.replacement)),
                    }
                }
                (false, true) => format!("Delete `{}`", shown(old)),
                (false, false) => format!("Replace `{}` with `{}`", shown(old), shown(&e.replacement)),
            }
        })
        .collect();
    words.join(", then ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An edit lands where the document's line index places its range, in either encoding,
    /// on lines with every kind of end, characters of one to four bytes, and positions past a
    /// line's end or inside a character.
    #[test]
    fn edits_land_where_the_line_index_places_them() {
        let texts = ["", "a", "ab\ncd", "é😀x\r\ny\rz\n", "\n\n", "\r\n\r", "日本\n語😀😀\r\n", "x\u{2028}y\n"];
        let mut checked = 0;
        for text in texts {
            let index = LineIndex::new(text);
            let rope = Rope::from_str(text);
            for encoding in [Encoding::Utf8, Encoding::Utf16] {
                for line in 0..4u32 {
                    for character in 0..12u32 {
                        let at = lsp::Position::new(line, character);
                        let byte = offset(text, &index, at, encoding);
                        assert_eq!(rope.char_to_byte(char_at(&rope, at, encoding)), byte, "{text:?} at {at:?}");
                        // The same edit, by both ways.
                        let mut edited = text.to_owned();
                        let change = lsp::TextDocumentContentChangeEvent {
                            range: Some(lsp::Range::new(lsp::Position::new(0, 0), at)),
                            range_length: None,
                            text: "#".into(),
                        };
                        apply_changes(&mut edited, vec![change], encoding);
                        assert_eq!(edited, format!("#{}", &text[byte..]), "{text:?} at {at:?}");
                        checked += 1;
                    }
                }
            }
        }
        assert_eq!(checked, texts.len() * 2 * 4 * 12);
    }

    /// Many edits in one change: each applies to the text the ones before it left.
    #[test]
    fn edits_of_one_change_apply_in_order() {
        let mut text = "ab\ncd\n".to_owned();
        let edit = |l0, c0, l1, c1, t: &str| lsp::TextDocumentContentChangeEvent {
            range: Some(lsp::Range::new(lsp::Position::new(l0, c0), lsp::Position::new(l1, c1))),
            range_length: None,
            text: t.into(),
        };
        let whole = |t: &str| lsp::TextDocumentContentChangeEvent { range: None, range_length: None, text: t.into() };
        let changes = vec![edit(0, 1, 0, 1, "X\n"), edit(2, 0, 2, 2, "y"), whole("new\n"), edit(1, 0, 1, 0, "end")];
        apply_changes(&mut text, changes, Encoding::Utf16);
        assert_eq!(text, "new\nend");
        let mut text = "ab\ncd\n".to_owned();
        apply_changes(&mut text, vec![edit(0, 1, 0, 1, "X\n"), edit(2, 0, 2, 2, "y")], Encoding::Utf16);
        assert_eq!(text, "aX\nb\ny\n");
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
