//! The spec playground through the built binary: `kifu tree`, `kifu grammar diff|railroad|ebnf`
//! and `kifu conformance`, and the `conformance/` folder kept in step with the fixtures.

use std::path::Path;
use std::process::Command;

use insta_cmd::assert_cmd_snapshot;
use pest::Parser;

use crate::common::bin;

use bin::{kifu, START};
const EDITED: &str = "tests/fixtures/playground/sfen-side-any-case.pest";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn files(dir: &str, ext: &str) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(root().join(dir))
        .expect("fixture folder")
        .filter_map(Result::ok)
        .map(|e| format!("{dir}/{}", e.file_name().to_string_lossy()))
        .filter(|n| n.ends_with(ext))
        .collect();
    out.sort();
    out
}

#[test]
fn help() {
    bin::settings("playground").bind(|| {
        assert_cmd_snapshot!("tree_help", kifu().args(["tree", "--help"]));
        assert_cmd_snapshot!("grammar_help", kifu().args(["grammar", "--help"]));
        assert_cmd_snapshot!("grammar_diff_help", kifu().args(["grammar", "diff", "--help"]));
        assert_cmd_snapshot!("conformance_help", kifu().args(["conformance", "--help"]));
    });
}

#[test]
fn tree_of_records() {
    bin::settings("playground").bind(|| {
        assert_cmd_snapshot!("tree_sfen_record", kifu().args(["tree", "--format", "sfen", "--record", START]));
        assert_cmd_snapshot!("tree_sfen_ast", kifu().args(["tree", "--format", "sfen", "--ast", "--record", START]));
        assert_cmd_snapshot!("tree_fen_file", kifu().args(["tree", "examples/boards.fen"]));
        assert_cmd_snapshot!(
            "tree_psn_game",
            kifu().args(["tree", "--format", "psn", "--record", "[Sente \"Oyama\"]\n1. P7f P3d 2. P2f 1-0\n"])
        );
        // The rule `file` reads a whole file and cuts it into games: at headers, and after an end
        // of game in a file without headers.
        assert_cmd_snapshot!(
            "tree_psn_file",
            kifu().args([
                "tree",
                "--format",
                "psn",
                "--rule",
                "file",
                "--record",
                "1. P7f 1-0\n1. P2f P8d\n[Sente \"A\"]\n1. P5f\n"
            ])
        );
        assert_cmd_snapshot!(
            "tree_psn_ast",
            kifu().args(["tree", "--format", "psn", "--ast", "--record", "1. P7f P3d\n"])
        );
        // A file of several records: places are the file's lines; a rejected one is explained.
        assert_cmd_snapshot!("tree_tour", kifu().args(["tree", "--dialect", "usi", "examples/tour.sfen"]));
        assert_cmd_snapshot!(
            "tree_ast_invalid",
            kifu().args(["tree", "--ast", "--format", "fen", "--record", "8/8/8 w - - 0 1"])
        );
    });
}

/// A rejected record shows the tree of what the rule read before it stopped, and a mark
/// where and why it stopped, inside the nodes that were being read.
#[test]
fn tree_of_a_rejected_record_goes_up_to_the_rejection() {
    let cut = "lnsgkgsnl/1r5b1/pp";
    let out = bin::run(&["tree", "--format", "sfen", "--record", cut]);
    assert_eq!(out.status.code(), Some(1));
    let shown = bin::stdout(&out);
    let lines: Vec<&str> = shown.lines().collect();
    assert!(lines[0].starts_with("record 1:1-1:19 "), "{shown}");
    assert!(lines.contains(&"        piece 1:18-1:19 \"p\""), "{shown}");
    // The mark is inside the third row, which was being read.
    let mark = lines.last().expect("a mark");
    assert!(mark.starts_with("        × stopped at 1:19: expected a digit 1-9"), "{mark}");
    assert!(mark.ends_with("; found the end of the text"), "{mark}");
    // The report on standard error, as before.
    assert!(String::from_utf8_lossy(&out.stderr).contains("tree::rejected"));
}

/// Every node of a `--json` tree: its span inside its parent's, its places those of its bytes,
/// text on leaves only. Returns the nodes, parents first, with their depth.
fn json_nodes(nodes: &serde_json::Value, record: &str) -> Vec<(usize, serde_json::Value)> {
    let mut out = Vec::new();
    let mut stack: Vec<(&serde_json::Value, usize, (u64, u64))> =
        nodes.as_array().expect("an array").iter().rev().map(|n| (n, 0, (0, record.len() as u64))).collect();
    while let Some((n, depth, (lo, hi))) = stack.pop() {
        let (start, end) = (n["start"].as_u64().expect("start"), n["end"].as_u64().expect("end"));
        assert!(lo <= start && start <= end && end <= hi, "{n} not inside {lo}..{hi}");
        let column = record[..start as usize].chars().count() as u64 + 1;
        assert_eq!(n["column"].as_u64(), Some(column), "{n}");
        assert!(n["rule"].is_string() && n["line"].is_u64() && n["end_column"].is_u64(), "{n}");
        match (n.get("text"), n.get("children")) {
            (Some(text), None) => assert_eq!(text.as_str(), record.get(start as usize..end as usize)),
            (None, Some(children)) => {
                let children = children.as_array().expect("children");
                assert!(!children.is_empty(), "{n}");
                stack.extend(children.iter().rev().map(|c| (c, depth + 1, (start, end))));
            }
            _ => panic!("a node has text or children: {n}"),
        }
        out.push((depth, n.clone()));
    }
    out
}

#[test]
fn tree_json_gives_one_object_a_record() {
    let out = bin::run(&["tree", "--json", "--dialect", "usi", "examples/tour.sfen"]);
    assert_eq!(out.status.code(), Some(1));
    let records = bin::json_lines(&out);
    assert_eq!(records.len(), 11, "one object a record");
    let mut rejected = 0;
    for r in &records {
        let text = r["record"].as_str().expect("record");
        let nodes = json_nodes(&r["tree"], text);
        assert_eq!(r["file"], "examples/tour.sfen");
        if r["accepted"] == true {
            assert!(r.get("stopped").is_none());
            assert_eq!(nodes[0].1["rule"], "usi_record", "{r}");
            assert!(nodes.iter().all(|(_, n)| n.get("open").is_none()));
        } else {
            rejected += 1;
            let stopped = &r["stopped"];
            assert_eq!(stopped["code"], "tree::rejected");
            let at = stopped["offset"].as_u64().expect("offset");
            assert_eq!(
                stopped["found"].as_str(),
                Some(text[at as usize..].chars().next().map_or(String::new(), String::from).as_str())
            );
            assert!(stopped["expected"].as_str().is_some_and(|e| !e.is_empty()));
            // Nothing read at or past the place; the open nodes reach it.
            for (_, n) in &nodes {
                assert!(n["start"].as_u64() < Some(at), "{n}");
                if n.get("open").is_some() {
                    assert_eq!(n["end"].as_u64(), Some(at), "{n}");
                }
            }
        }
    }
    assert!(rejected > 0);
    // A record rejected at its 65th character: the tree up to there, the move number's `10`.
    let long = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL B - 100";
    let out = bin::run(&["tree", "--json", "--format", "sfen", "--record", long]);
    let r = &bin::json_lines(&out)[0];
    assert_eq!((r["stopped"]["line"].as_u64(), r["stopped"]["column"].as_u64()), (Some(1), Some(65)));
    let nodes = json_nodes(&r["tree"], long);
    let last = &nodes.last().expect("nodes").1;
    assert_eq!((last["rule"].as_str(), last["text"].as_str()), (Some("sfen2007_move_number"), Some("10")));
    let open: Vec<&str> =
        nodes.iter().filter(|(_, n)| n["open"] == true).filter_map(|(_, n)| n["rule"].as_str()).collect();
    assert_eq!(open, ["record", "sfen2007_record"]);
}

#[test]
fn tree_ast_json_gives_kifus_syntax_tree() {
    let out = bin::run(&["tree", "--ast", "--json", "--format", "sfen", "--record", START]);
    assert_eq!(out.status.code(), Some(0));
    let r = &bin::json_lines(&out)[0];
    assert_eq!(r["accepted"], true);
    let nodes = json_nodes(&r["tree"], START);
    let rules: Vec<(usize, &str)> = nodes.iter().map(|(d, n)| (*d, n["rule"].as_str().unwrap_or(""))).collect();
    assert_eq!(rules[..3], [(0, "Record"), (1, "board"), (2, "Rank")]);
    assert_eq!(rules.iter().filter(|(_, r)| *r == "Rank").count(), 9);
    assert_eq!(rules[rules.len() - 3..], [(1, "side"), (1, "hand"), (1, "move_number")]);
    // An invalid record: its first error as `stopped`; a PSN game's moves as nodes.
    let out = bin::run(&["tree", "--ast", "--json", "--format", "fen", "--record", "8/8/8 w - - 0 1"]);
    let r = &bin::json_lines(&out)[0];
    assert_eq!((r["accepted"].as_bool(), r["stopped"]["code"].as_str()), (Some(false), Some("fen::rank-count")));
    let out = bin::run(&["tree", "--ast", "--json", "--format", "psn", "--record", "1. P7f P3d"]);
    let r = &bin::json_lines(&out)[0];
    let nodes = json_nodes(&r["tree"], "1. P7f P3d");
    let moves: Vec<&str> =
        nodes.iter().filter(|(_, n)| n["rule"] == "mv").filter_map(|(_, n)| n["text"].as_str()).collect();
    assert_eq!(moves, ["P7f", "P3d"]);
}

#[test]
fn tree_with_an_edited_grammar() {
    bin::settings("playground").bind(|| {
        let upper = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL B - 100";
        assert_cmd_snapshot!("tree_shipped_rejects", kifu().args(["tree", "--format", "sfen", "--record", upper]));
        assert_cmd_snapshot!(
            "tree_edited_accepts",
            kifu().args(["tree", "--grammar", EDITED, "--rule", "record", "--format", "sfen", "--record", upper])
        );
        // A rule that is a simple literal is shown with its text.
        assert_cmd_snapshot!(
            "tree_edited_rejects",
            kifu().args(["tree", "--grammar", EDITED, "--rule", "usi_side", "--record", "x"])
        );
        for name in ["undefined-rule", "left-recursion", "syntax-error"] {
            let path = format!("tests/fixtures/playground/{name}.pest");
            assert_cmd_snapshot!(
                format!("grammar_error_{name}"),
                kifu().args(["tree", "--grammar", &path, "--rule", "record", "--record", "1"])
            );
        }
        assert_cmd_snapshot!(
            "tree_unknown_rule",
            kifu().args(["tree", "--grammar", EDITED, "--rule", "recrd", "--record", "x"])
        );
        assert_cmd_snapshot!(
            "tree_ast_with_grammar",
            kifu().args(["tree", "--grammar", EDITED, "--ast", "--record", "x"])
        );
        assert_cmd_snapshot!("tree_no_format", kifu().args(["tree", "--record", "x"]));
    });
}

#[test]
fn awkward_inputs_never_crash() {
    let dir = tempfile::tempdir().expect("temp dir");
    let write = |name: &str, bytes: &[u8]| {
        let p = dir.path().join(name);
        std::fs::write(&p, bytes).expect("write");
        p.to_string_lossy().into_owned()
    };
    let binary = write("binary.sfen", b"\x00\xff\xfe\x01lnsg\n\x80\x80");
    let empty = write("empty.sfen", b"");
    let empty_psn = write("empty.psn", b"");
    let bin_grammar = write("binary.pest", b"record = { \"\xff\" }");
    let deep = write("deep.pest", b"record = { \"(\" ~ record? ~ \")\" }");
    let mut deep_input = "(".repeat(200_000);
    deep_input.push_str(&")".repeat(200_000));
    let deep_record = write("deep.txt", deep_input.as_bytes());
    let status = |args: &[&str]| kifu().args(args).output().expect("runs").status.code();
    assert_eq!(status(&["tree", &binary]), Some(1));
    assert_eq!(status(&["tree", "--ast", &binary]), Some(1));
    assert_eq!(status(&["tree", &empty]), Some(0));
    assert_eq!(status(&["tree", &empty_psn]), Some(0));
    assert_eq!(status(&["tree", "--format", "sfen", "--record", ""]), Some(1));
    assert_eq!(status(&["tree", "--grammar", &bin_grammar, "--rule", "record", "--record", "x"]), Some(2));
    // Deep nesting: an answer (accepted or not), never a crash.
    let code = status(&["tree", "--grammar", &deep, "--no-common", "--rule", "record", &deep_record]);
    assert!(matches!(code, Some(0 | 1)), "{code:?}");
    assert_eq!(status(&["grammar", "ebnf", &binary]), Some(2));
    assert_eq!(status(&["grammar", "railroad", &empty, "--rule", "x"]), Some(2));
    assert_eq!(status(&["grammar", "diff", &empty, &empty, "--rule", "line", &binary]), Some(0));
    bin::settings("playground").bind(|| {
        assert_cmd_snapshot!("tree_binary", kifu().args(["tree", "--format", "sfen", &binary]));
    });
}

/// kifu's trees are pest_vm's trees of the shipped grammars, so `--grammar grammar/sfen.pest`
/// changes nothing: both print what the derived parser prints.
#[test]
fn the_vm_reads_the_shipped_grammars_as_the_derived_parsers_do() {
    use kifu::playground::grammar::Grammar;
    let sfen = Grammar::shipped("grammar/sfen.pest", kifu::notation::grammar::SFEN).expect("SFEN grammar");
    for path in files("tests/fixtures/sfen/ok", ".sfen").into_iter().chain(files("tests/fixtures/sfen/err", ".sfen")) {
        let text = std::fs::read_to_string(root().join(&path)).expect("fixture");
        let text = text.trim_end_matches('\n');
        if text.chars().count() > 80 {
            continue; // `render_with` shortens long texts
        }
        let derived = kifu::sfen::parser::SfenParser::parse(kifu::sfen::parser::Rule::record, text);
        let vm = sfen.parse("record", text);
        match (derived, vm) {
            (Ok(d), Ok(v)) => {
                assert_eq!(
                    kifu::notation::tree::render(d),
                    kifu::notation::tree::render_with(v, 1, &|r: &str| r.to_owned()),
                    "{path}"
                )
            }
            (Err(_), Err(_)) => {}
            (d, v) => panic!("{path}: derived {:?}, vm {:?}", d.is_ok(), v.is_ok()),
        }
    }
    let fen = Grammar::shipped("grammar/fen.pest", kifu::notation::grammar::FEN).expect("FEN grammar");
    for path in files("tests/fixtures/fen/ok", ".fen") {
        let text = std::fs::read_to_string(root().join(&path)).expect("fixture");
        let text = text.trim_end_matches('\n');
        let rule = if path.contains("chess960") {
            kifu::fen::parser::Rule::fen960_record
        } else {
            kifu::fen::parser::Rule::fen_record
        };
        let name = format!("{rule:?}");
        let derived = kifu::fen::parser::FenParser::parse(rule, text).expect("ok fixture parses");
        let vm = fen.parse(&name, text).expect("the VM parses it too");
        assert_eq!(
            kifu::notation::tree::render(derived),
            kifu::notation::tree::render_with(vm, 1, &|r: &str| r.to_owned()),
            "{path}"
        );
    }
}

/// The diff a spec author would run before proposing side letters in either case: the shipped
/// SFEN grammar against the edited copy, over every SFEN fixture and the tour example.
#[test]
fn grammar_diff_of_case_insensitive_sides() {
    let mut corpus = files("tests/fixtures/sfen/ok", ".sfen");
    corpus.extend(files("tests/fixtures/sfen/err", ".sfen"));
    corpus.push("examples/tour.sfen".to_owned());
    let mut args = vec!["grammar", "diff", "grammar/sfen.pest", EDITED, "--rule", "record", "--json"];
    args.extend(corpus.iter().map(String::as_str));
    let out = kifu().args(&args).output().expect("runs");
    assert_eq!(out.status.code(), Some(1), "a change exits 1");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    let counts: Vec<u64> = ["accepted_both", "rejected_both", "newly_accepted", "newly_rejected", "changed_tree"]
        .iter()
        .map(|k| v[k].as_u64().unwrap_or_else(|| panic!("{k} missing")))
        .collect();
    let records = v["records"].as_u64().expect("records");
    assert_eq!(counts.iter().sum::<u64>(), records);
    // Only `B`/`W` with a move number past 99 is newly accepted (USI's side, now in any case,
    // takes it); every lowercase record with a 2007-sized move number is now read as SFEN 2007.
    assert_eq!(counts, [13, 59, 2, 0, 46]);
    let examples = v["examples"].as_array().expect("examples");
    assert!(examples.iter().any(|e| e["kind"] == "newly_accepted"
        && e["file"] == "tests/fixtures/sfen/err/dialect_sfen2007_move_100.sfen"
        && e["column"] == 65));
    for e in examples {
        for key in ["kind", "file", "line", "at_line", "column", "record", "old", "new"] {
            assert!(e.get(key).is_some(), "examples[].{key}");
        }
    }
    // `--json` lists every changed record, and sums them up by transition.
    assert_eq!(examples.len() as u64, counts[2] + counts[3] + counts[4]);
    let transitions = v["transitions"].as_array().expect("transitions");
    let total: u64 = transitions.iter().map(|t| t["count"].as_u64().expect("count")).sum();
    assert_eq!(total, counts[2] + counts[3] + counts[4]);
    assert!(transitions.windows(2).all(|w| w[0]["count"].as_u64() >= w[1]["count"].as_u64()), "most frequent first");
    assert!(
        transitions
            .iter()
            .any(|t| t["kind"] == "changed_tree" && t["old"] == "`usi_record`" && t["new"] == "`sfen2007_record`"),
        "{transitions:?}"
    );
    // The same grammar on both sides changes nothing, and exits 0.
    let mut same = vec!["grammar", "diff", "grammar/sfen.pest", "grammar/sfen.pest", "--rule", "record"];
    same.extend(corpus.iter().map(String::as_str));
    assert_eq!(kifu().args(&same).output().expect("runs").status.code(), Some(0));
    bin::settings("playground").bind(|| {
        let mut human = vec!["grammar", "diff", "grammar/sfen.pest", EDITED, "--rule", "record", "--examples", "1"];
        human.extend(corpus.iter().map(String::as_str));
        assert_cmd_snapshot!("grammar_diff_sides", kifu().args(&human));
    });
}

#[test]
fn grammar_diff_reads_psn_games() {
    let corpus = files("tests/fixtures/psn/ok", ".psn");
    let mut args = vec!["grammar", "diff", "grammar/psn.pest", "grammar/psn.pest", "--rule", "game", "--json"];
    args.extend(corpus.iter().map(String::as_str));
    let out = kifu().args(&args).output().expect("runs");
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let games: usize = corpus
        .iter()
        .map(|p| kifu::psn::check_bytes(&std::fs::read(root().join(p)).expect("read"), Default::default()).games.len())
        .sum();
    assert_eq!(v["records"].as_u64(), Some(games as u64), "one record per game");
}

#[test]
fn railroad_and_ebnf() {
    bin::settings("playground").bind(|| {
        assert_cmd_snapshot!(
            "ebnf_sfen_record",
            kifu().args(["grammar", "ebnf", "grammar/sfen.pest", "--rule", "record"])
        );
        assert_cmd_snapshot!("ebnf_edited_hand", kifu().args(["grammar", "ebnf", EDITED, "--rule", "usi_side"]));
    });
    let out = kifu().args(["grammar", "railroad", "grammar/sfen.pest", "--rule", "record"]).output().expect("runs");
    assert_eq!(out.status.code(), Some(0));
    let svg = String::from_utf8(out.stdout).expect("UTF-8");
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    // A size as well as a view box (a browser shrinks an SVG without one to the page's width).
    let attribute = |name: &str| {
        let at = svg.find(&format!(" {name}=\"")).expect(name) + name.len() + 3;
        svg[at..].split('"').next().expect("a value").to_owned()
    };
    assert_eq!(attribute("viewBox"), format!("0 0 {} {}", attribute("width"), attribute("height")));
    for rule in ["record", "sfen2007_record", "usi_record", "board", "hand_entry"] {
        assert!(svg.contains(rule), "{rule} drawn");
    }
    let shipped = std::fs::read_to_string(root().join("docs/sfen-record.svg")).expect("docs/sfen-record.svg");
    assert_eq!(shipped, svg, "docs/sfen-record.svg is stale: run `kifu grammar railroad grammar/sfen.pest --rule record -o docs/sfen-record.svg`");
    for grammar in ["grammar/fen.pest", "grammar/psn.pest"] {
        assert_eq!(kifu().args(["grammar", "ebnf", grammar]).output().expect("runs").status.code(), Some(0));
    }
    // A literal quote is drawn as it is written in a record, not with the grammar's backslash.
    let out = kifu().args(["grammar", "railroad", "grammar/psn.pest", "--rule", "header"]).output().expect("runs");
    let svg = String::from_utf8(out.stdout).expect("UTF-8");
    assert!(svg.contains("\n&quot;</text>"), "the quote drawn as it is written");
    assert!(!svg.contains("\\&quot;"), "no backslash before a quote");
}

/// `conformance/` is what the fixtures make it. `KIFU_UPDATE_CONFORMANCE=1 cargo test
/// --test cli playground::` writes it again.
#[test]
fn conformance_suite_is_fresh() {
    let generated = kifu::playground::conformance::generate(&root().join("tests/fixtures")).expect("fixtures read");
    let suite = root().join("conformance");
    if std::env::var_os("KIFU_UPDATE_CONFORMANCE").is_some() {
        for (path, bytes) in &generated {
            let p = suite.join(path);
            std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
            std::fs::write(p, bytes).expect("write");
        }
    }
    let mut stale = Vec::new();
    for (path, bytes) in &generated {
        if std::fs::read(suite.join(path)).ok().as_ref() != Some(bytes) {
            stale.push(path.clone());
        }
    }
    let mut on_disk = Vec::new();
    for format in ["sfen", "fen", "psn", "kif", "csa", "jkf"] {
        for kind in ["ok", "err"] {
            if let Ok(entries) = std::fs::read_dir(suite.join(format).join(kind)) {
                on_disk.extend(
                    entries
                        .filter_map(Result::ok)
                        .map(|e| format!("{format}/{kind}/{}", e.file_name().to_string_lossy())),
                );
            }
        }
    }
    let extra: Vec<&String> = on_disk.iter().filter(|p| !generated.iter().any(|(g, _)| g == *p)).collect();
    assert!(
        stale.is_empty() && extra.is_empty(),
        "conformance/ is stale ({} files differ: {:?}; {} left over: {extra:?}): run `KIFU_UPDATE_CONFORMANCE=1 cargo test --test cli playground::`",
        stale.len(),
        stale.iter().take(5).collect::<Vec<_>>(),
        extra.len()
    );
    assert!(suite.join("README.md").exists());
}

/// kifu scored by its own suite agrees on every case; a validator that accepts everything is
/// caught on every invalid case.
#[test]
fn conformance_scores_a_validator() {
    // Without `--cmd` kifu scores itself, and without `--suite` on the suite built into it: from
    // any folder.
    let elsewhere = tempfile::tempdir().expect("temp dir");
    let out = kifu().current_dir(elsewhere.path()).args(["conformance", "--json"]).output().expect("runs");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let disagree: Vec<&str> =
        v["disagreements"].as_array().expect("list").iter().filter_map(|d| d["file"].as_str()).collect();
    assert_eq!(disagree, Vec::<&str>::new(), "{v}");
    assert_eq!(v["agree"], v["cases"], "{v}");
    assert!(v["cases"].as_u64().is_some_and(|n| n > 200));
    assert_eq!(out.status.code(), Some(0), "it agrees on every case");
    bin::settings("playground").bind(|| {
        assert_cmd_snapshot!(
            "conformance_accepts_everything",
            kifu().args(["conformance", "--format", "sfen", "--show", "1", "--cmd", "true {file}"])
        );
        assert_cmd_snapshot!(
            "conformance_failing_tool",
            kifu().args(["conformance", "--format", "fen", "--show", "1", "--cmd", "echo broken >&2; exit 3 # {file}"])
        );
        assert_cmd_snapshot!(
            "conformance_no_suite",
            kifu().args(["conformance", "--suite", "nowhere", "--cmd", "true {file}"])
        );
    });
}

/// Runs `cmd`, killing it if it has not ended in 60 s (a hang fails the test, not the run).
fn finishes(cmd: &mut Command) -> std::process::Output {
    use std::io::Read;
    let mut child = cmd
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("runs");
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let stdout = drain(Box::new(child.stdout.take().expect("stdout")));
    let stderr = drain(Box::new(child.stderr.take().expect("stderr")));
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("waits") {
            break status;
        }
        if start.elapsed() > std::time::Duration::from_secs(60) {
            let _ = child.kill();
            panic!("{cmd:?} did not end in 60 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    std::process::Output {
        status,
        stdout: stdout.join().expect("stdout read"),
        stderr: stderr.join().expect("stderr read"),
    }
}

/// Rule `a` and `n - 1` more, each calling the next twice at its start.
fn doubling(n: usize) -> String {
    let name = |i: usize| if i == 0 { "a".to_owned() } else { format!("r{i}") };
    let mut text: String = (0..n).map(|i| format!("{} = {{ {} | {} }}\n", name(i), name(i + 1), name(i + 1))).collect();
    text.push_str(&format!("{} = {{ \"x\" }}\n", name(n)));
    text
}

/// Rule `a` and `n - 1` more of `terms` terms each, each calling the next first (`chained`) or
/// standing alone.
fn long_rules(n: usize, terms: usize, chained: bool) -> String {
    let name = |i: usize| if i == 0 { "a".to_owned() } else { format!("r{i}") };
    (0..n)
        .map(|i| {
            let first = if chained && i + 1 < n { name(i + 1) } else { "\"x\"".to_owned() };
            format!("{} = {{ {first}{} }}\n", name(i), " ~ \"a\"".repeat(terms - 1))
        })
        .collect()
}

/// Grammars of a few bytes that crashed the loader or kept it busy for minutes: each is a
/// pointed report with exit status 2, before pest reads, recurses on or writes out anything.
#[test]
fn hostile_grammars_are_reported() {
    let dir = tempfile::tempdir().expect("temp dir");
    let chain = |n: usize| {
        let mut text: String = (0..n).map(|i| format!("a{i}={{a{}}}\n", i + 1)).collect();
        text.push_str(&format!("a{n}={{\"x\"}}\n"));
        text
    };
    let cases: Vec<(&str, String, &str)> = vec![
        ("huge-count", r#"a = { "x"{4294967295} }"#.into(), "grammar::count-too-large"),
        ("large-count", r#"a = { "x"{40000} }"#.into(), "grammar::count-too-large"),
        ("huge-peek", "a = { PEEK[4294967295..] }".into(), "grammar::count-too-large"),
        ("not-a-char", r#"a = { "\u{110000}" }"#.into(), "grammar::bad-escape"),
        ("surrogate", r#"a = { '\u{D800}'..'z' }"#.into(), "grammar::bad-escape"),
        ("parens", format!("a = {{ {}\"x\"{} }}", "(".repeat(10_000), ")".repeat(10_000)), "grammar::too-deep"),
        ("comments", format!("{}\na = {{ \"x\" }}", "/*".repeat(10_000)), "grammar::too-deep"),
        ("escapes", format!("a = {{ \"{}\" }}", r"\n".repeat(100_000)), "grammar::too-deep"),
        ("postfix", format!("a = {{ \"x\"{} }}", "?".repeat(10_000)), "grammar::rule-too-long"),
        ("prefix", format!("a = {{ {}\"x\" }}", "!".repeat(10_000)), "grammar::rule-too-long"),
        ("tilde", format!("a = {{ {} }}", vec![r#""x""#; 4000].join(" ~ ")), "grammar::rule-too-long"),
        ("rules", chain(60_000), "grammar::too-many-rules"),
        ("big", chain(100_000), "larger than 1 MiB"),
        ("counted", "a = { (r2){1,1000} }\nr2 = { \"x\"{1,1000} }\n".into(), "grammar::too-costly"),
        ("counted-500", "a = { (r2){1,500} }\nr2 = { \"x\"{1,500} }\n".into(), "grammar::too-costly"),
        ("choices", format!("a = {{ {} }}", vec![r#""x""#; 499].join(" | ")), "grammar::too-costly"),
        // pest's checks of a whole grammar: a chain of rules that each call the next twice at
        // their start (each rule doubles their time), long rules chained at their start (they
        // nest as deep as all of them), long rules side by side (each costs the square of its
        // length), and a loop of calls that reads nothing.
        ("doubling", doubling(25), "grammar::too-costly"),
        ("long-chain", long_rules(50, 499, true), "grammar::too-costly"),
        ("long-rules", long_rules(340, 499, false), "grammar::too-costly"),
        ("loop", "a = { b ~ \"x\" }\nb = { \"\"? ~ c }\nc = { a | \"y\" }\n".into(), "grammar::left-recursion"),
    ];
    for (name, text, code) in &cases {
        let path = dir.path().join(format!("{name}.pest"));
        std::fs::write(&path, text).expect("write");
        let out =
            finishes(kifu().args(["tree", "--no-common", "--rule", "a", "--record", "x", "--grammar"]).arg(&path));
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains(code), "{name}: expected {code}: {err}");
        assert!(!err.contains("panicked"), "{name}: {err}");
    }
    // Within the limits, the same shapes load and run.
    for (name, text) in [
        ("counted-ok", "a = { (r2){1,100} ~ EOI }\nr2 = { \"x\"{1,100} }\n".to_owned()),
        ("rules-ok", chain(900).replace("a0={a1}", "a={a1}")),
        ("choices-ok", format!("a = {{ {} }}", vec![r#""x""#; 100].join(" | "))),
        ("doubling-ok", doubling(12)),
        ("long-rules-ok", long_rules(3, 498, false).replacen("a = { ", "a = { \"x\" | ", 1)),
    ] {
        let path = dir.path().join(format!("{name}.pest"));
        std::fs::write(&path, text).expect("write");
        let out =
            finishes(kifu().args(["tree", "--no-common", "--rule", "a", "--record", "x", "--grammar"]).arg(&path));
        assert_eq!(out.status.code(), Some(0), "{name}: {}", String::from_utf8_lossy(&out.stderr));
    }
    // A grammar file that never ends is read up to the limit, not until memory runs out.
    let out = finishes(kifu().args(["grammar", "ebnf", "/dev/zero"]));
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("larger than 1 MiB"));
}

/// What a grammar does to a record is bounded too: `POP` and `PEEK` on an empty stack are a
/// report (no panic message), and a grammar that backtracks exponentially is stopped.
#[test]
fn runaway_rules_are_stopped_with_a_report() {
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, text, record, code) in [
        ("pop", "a = { POP }", "x", "tree::grammar-fault"),
        ("peek", "a = { \"x\" ~ PEEK }", "xy", "tree::grammar-fault"),
        (
            "exponential",
            "a = { e ~ EOI }\ne = { \"x\" ~ e ~ \"a\" | \"x\" ~ e ~ \"b\" | \"x\" }",
            &"x".repeat(40),
            "tree::too-slow",
        ),
    ] {
        let path = dir.path().join(format!("{name}.pest"));
        std::fs::write(&path, text).expect("write");
        let out =
            finishes(kifu().args(["tree", "--no-common", "--rule", "a", "--record", record, "--grammar"]).arg(&path));
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{name}: {err}");
        assert!(err.contains(code), "{name}: expected {code}: {err}");
        assert!(!err.contains("panicked") && !err.contains("backtrace"), "{name}: {err}");
    }
}

/// In `grammar diff`, a record a grammar was stopped on has no verdict: it is counted apart,
/// with its example, never as newly rejected, and the run exits 1.
#[test]
fn a_record_a_grammar_stops_on_is_not_called_rejected() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (old, new, corpus) = (dir.path().join("old.pest"), dir.path().join("new.pest"), dir.path().join("c.sfen"));
    std::fs::write(&old, "a = { \"x\" }\n").expect("write");
    std::fs::write(&new, "a = { \"x\" ~ POP | \"y\" }\n").expect("write");
    std::fs::write(&corpus, "x\ny\n").expect("write");
    let out = finishes(
        kifu().args(["grammar", "diff", "--no-common", "--rule", "a", "--format", "sfen"]).args([&old, &new, &corpus]),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("grammar::stopped"), "{text}");
    let count = |what: &str| {
        text.lines()
            .find(|l| l.trim_start().starts_with(what))
            .and_then(|l| l.split_whitespace().last()?.parse::<usize>().ok())
    };
    assert_eq!(count("stopped, no verdict"), Some(1), "{text}");
    assert_eq!(count("newly rejected"), Some(0), "{text}");
    assert_eq!(count("newly accepted"), Some(1), "{text}");
}

/// `kifu tree --ast` of deeply nested variations: its text grows with the game, not with the
/// square of its depth (deep lines carry their level instead of more indentation); a line
/// record longer than the limit is a report, and findings beyond the limit are counted.
#[test]
fn tree_output_is_bounded() {
    let dir = tempfile::tempdir().expect("temp dir");
    let nested = dir.path().join("nested.psn");
    std::fs::write(&nested, format!("P7f {}\n", "(P3d ".repeat(90))).expect("write");
    let out = finishes(kifu().args(["tree", "--ast"]).arg(&nested));
    let text = String::from_utf8_lossy(&out.stdout);
    let widest = text.lines().map(|l| l.len() - l.trim_start().len()).max().unwrap_or(0);
    assert!(widest <= 4 * 40, "indented {widest} columns");
    assert!(text.contains("[41] "), "deep lines show their level");

    let long = dir.path().join("long.epd");
    std::fs::write(&long, format!("8/8/8/8/8/8/8/8 w - - {}\n", "op \"x\"; ".repeat(3000))).expect("write");
    let out = finishes(kifu().args(["tree", "--ast"]).arg(&long));
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("tree::too-long"));
    assert!(out.stderr.len() < 2048, "the report shows the line's start only");
    let out = finishes(kifu().args(["tree", "--format", "epd"]).arg(&long));
    assert!(String::from_utf8_lossy(&out.stderr).contains("tree::too-long"));
    // With `--json`, still one object a record, for the nested game too.
    for (path, code) in [(&long, Some("tree::too-long")), (&nested, Some("psn::variation-unclosed"))] {
        let out = finishes(kifu().args(["tree", "--ast", "--json"]).arg(path));
        let r: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
        assert_eq!(r["stopped"]["code"].as_str(), code, "{path:?}");
    }

    let faults = dir.path().join("faults.sfen");
    std::fs::write(&faults, format!("{} b - 1\n", vec!["x"; 60].join("/"))).expect("write");
    let out = finishes(kifu().args(["tree", "--ast"]).arg(&faults));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.matches("help:").count(), 20, "{err}");
    assert!(err.contains("… and 50 more findings in this record"), "{err}");
}

/// `kifu conformance`: a timeout that is no number of seconds is a usage error; a validator
/// whose children outlive `sh` is ended with them at the timeout; its words are shown escaped;
/// and a suite's `cases.tsv` is data, never part of the command.
#[test]
fn conformance_runs_validators_safely() {
    let dir = tempfile::tempdir().expect("temp dir");
    let suite = dir.path().join("suite");
    std::fs::create_dir_all(suite.join("sfen")).expect("mkdir");
    std::fs::write(suite.join("sfen/a.sfen"), format!("{START}\n")).expect("write");
    let index = |format: &str, dialect: &str| {
        std::fs::write(
            suite.join("cases.tsv"),
            format!("format\tdialect\tverdict\tfile\n{format}\t{dialect}\tvalid\tsfen/a.sfen\n"),
        )
        .expect("write")
    };
    index("sfen", "auto");
    let run = |cmd: &str, timeout: &str| {
        finishes(kifu().current_dir(dir.path()).args([
            "conformance",
            "--suite",
            "suite",
            &format!("--timeout={timeout}"),
            "--cmd",
            cmd,
        ]))
    };
    for bad in ["1e20", "0", "-1", "NaN", "inf"] {
        let out = run("true {file}", bad);
        assert_eq!(out.status.code(), Some(2), "--timeout {bad}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("--timeout"), "--timeout {bad}");
    }
    // `sleep` outlives `sh` and holds its pipe: both end at the timeout.
    let start = std::time::Instant::now();
    let out = run("sleep 50 & sleep 50; true {file}", "1");
    assert!(start.elapsed() < std::time::Duration::from_secs(30), "waited for the grandchild");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("no answer in 1 s"));

    let out = run(r"printf '\033]0;retitled\007\033[2Jbad\n' >&2; exit 3 # {file}", "10");
    let shown = String::from_utf8_lossy(&out.stdout);
    assert!(!shown.contains('\u{1b}') && !shown.contains('\u{7}'), "{shown}");
    assert!(shown.contains(r"\u{1b}]0;retitled"), "{shown}");

    // A crafted index: its values are quoted, and one holding `{file}` is not filled in again.
    index("sfen;touch pwned-format", "$(touch pwned-dialect){file}");
    let out = run("test -n {format}{dialect} && true {file}", "10");
    assert!(!dir.path().join("pwned-format").exists() && !dir.path().join("pwned-dialect").exists());
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
}

/// Lines of a child's output, read on a thread.
fn lines_of(pipe: impl std::io::Read + Send + 'static) -> std::sync::mpsc::Receiver<String> {
    use std::io::BufRead;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(pipe).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

/// The lines that come before the first that contains `end` (included), within 60 s.
fn read_until(rx: &std::sync::mpsc::Receiver<String>, end: &str) -> Vec<String> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let mut got = Vec::new();
    while let Some(left) = deadline.checked_duration_since(std::time::Instant::now()) {
        match rx.recv_timeout(left) {
            Ok(line) => {
                let done = line.contains(end);
                got.push(line);
                if done {
                    return got;
                }
            }
            Err(_) => break,
        }
    }
    panic!("no line with {end:?} within 60 s; read {got:?}");
}

/// `--watch` runs the diff, then again on each save of the edited grammar; a broken grammar is
/// reported and the next save awaited; the process is killed at the end (never left behind).
#[test]
fn grammar_diff_watch_runs_again_on_each_save() {
    let dir = tempfile::tempdir().expect("temp dir");
    let shipped = std::fs::read(root().join("grammar/sfen.pest")).expect("grammar");
    let grammar = bin::write(dir.path(), "mine.pest", &shipped);
    let mut child = kifu()
        .args(["grammar", "diff", "grammar/sfen.pest", &grammar, "examples/tour.sfen", "--rule", "record", "--watch"])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("runs");
    struct Kill(std::process::Child);
    impl Drop for Kill {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let out = lines_of(child.stdout.take().expect("stdout"));
    let err = lines_of(child.stderr.take().expect("stderr"));
    let mut child = Kill(child);
    let first = read_until(&out, "accepted by both, tree changed");
    read_until(&err, "watching 3 files");
    // A save of the edited grammar: side letters in any case.
    std::fs::copy(root().join(EDITED), &grammar).expect("save");
    let second = read_until(&out, "accepted by both, tree changed");
    assert!(second.iter().any(|l| l.ends_with("mine.pest` changed: running again ────")), "{second:?}");
    let count = |lines: &[String]| -> u64 {
        lines.last().and_then(|l| l.split_whitespace().last()).and_then(|n| n.parse().ok()).expect("a count")
    };
    assert_eq!(count(&first), 0, "{first:?}");
    assert!(count(&second) > 0, "records read as SFEN 2007 now: {second:?}");
    read_until(&err, "watching 3 files");
    // A broken grammar: reported, and the watch goes on.
    std::fs::write(&grammar, "record = { \"a\" ~ }\n").expect("save");
    read_until(&err, "grammar::syntax");
    read_until(&err, "watching 3 files");
    assert!(child.0.try_wait().expect("status").is_none(), "still watching");
    std::fs::write(&grammar, &shipped).expect("save");
    let fourth = read_until(&out, "accepted by both, tree changed");
    assert_eq!(count(&fourth), 0, "{fourth:?}");
}

/// `kifu grammar diff --watch` on two copies of the shipped grammar, after its first run.
fn watching() -> (std::process::Child, std::io::BufReader<std::process::ChildStdout>) {
    use std::io::BufRead;
    let mut child = kifu()
        .args(["grammar", "diff", "grammar/sfen.pest", "grammar/sfen.pest", "examples/tour.sfen"])
        .args(["--rule", "record", "--watch"])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("runs");
    let mut first = String::new();
    let mut reader = std::io::BufReader::new(child.stdout.take().expect("stdout"));
    reader.read_line(&mut first).expect("a line");
    assert!(first.starts_with("rule `record`"), "{first}");
    (child, reader)
}

/// Waits at most 60 s for `child` to end: its status.
fn ends(child: &mut std::process::Child) -> std::process::ExitStatus {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().expect("status") {
            break status;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("--watch did not end");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    status
}

/// `--watch` ends, with status 0, when the reader of its output goes away, even while the
/// files of the folders it watches are read without a pause; and on Ctrl-C (on a termination,
/// where the test runs with Ctrl-C ignored).
#[test]
fn grammar_diff_watch_ends_when_its_output_is_closed_or_on_ctrl_c() {
    let (mut child, reader) = watching();
    let reading = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let reader_thread = {
        let reading = reading.clone();
        std::thread::spawn(move || {
            while reading.load(std::sync::atomic::Ordering::Relaxed) {
                let _ = std::fs::read(root().join("grammar/sfen.pest"));
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
        })
    };
    drop(reader);
    let status = ends(&mut child);
    reading.store(false, std::sync::atomic::Ordering::Relaxed);
    reader_thread.join().expect("the reading thread");
    assert_eq!(status.code(), Some(0));
    #[cfg(unix)]
    {
        use rustix::process::Signal;
        use std::os::unix::process::ExitStatusExt as _;
        let (mut child, _reader) = watching();
        let pid = rustix::process::Pid::from_child(&child);
        // A process started in the background by a shell ignores Ctrl-C, and so do its
        // children, kifu included: then a termination ends it.
        let (signal, number) = if ignores_interrupts() { (Signal::TERM, 15) } else { (Signal::INT, 2) };
        rustix::process::kill_process(pid, signal).expect("the signal sent");
        assert_eq!(ends(&mut child).signal(), Some(number), "ended by the signal");
    }
}

/// True when this process ignores SIGINT, which the processes it starts inherit (Linux tells;
/// elsewhere, false).
#[cfg(unix)]
fn ignores_interrupts() -> bool {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let ignored = status.lines().find_map(|l| l.strip_prefix("SigIgn:"));
    ignored.and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok()).is_some_and(|mask| mask & (1 << 1) != 0)
}
