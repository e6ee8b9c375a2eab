//! The designer's report page in a real browser (headless Chromium, which
//! `.ci/run` installs): it renders, logs no console error, asks nothing of
//! the network, shows each section's heading and answer line, prints to a
//! PDF of a bounded number of pages; and every number it shows is in
//! `report.json`. The page is `murus_publish`'s, the report the lab's: the
//! test lives here because `murus_publish` reads the report's types
//! (`murus_report`) and not the lab that makes them.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use murus_engine::Variant;
use murus_lab::designer::{Budget, DesignerReport, ReportConfig, run_report};
use murus_lab::folder::Mode;
use murus_publish::report_html;

/// The report of the standard rules on a 4×4 board, written once for all
/// the tests: `(folder, report)`.
fn written() -> &'static (PathBuf, DesignerReport) {
    static ONCE: OnceLock<(PathBuf, DesignerReport)> = OnceLock::new();
    ONCE.get_or_init(|| {
        let source = include_str!("../../../../variants/sweeps/standard-small.mg");
        let v = Variant::compile(source).unwrap();
        let mut config = ReportConfig::new(Budget::Quick, 2, 2);
        let three = Variant::compile_with(source, &[("files".to_string(), 3)]).unwrap();
        config.compare = Some((three, "standard-small.mg --set files=3".to_string()));
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("report-page");
        let _ = std::fs::remove_dir_all(&dir);
        let run = dir.join("run");
        let report = run_report(
            &v,
            "standard-small.mg",
            &config,
            Some((&run, Mode::New)),
            &(),
        )
        .unwrap();
        std::fs::write(dir.join("index.html"), report_html(&v, &report)).unwrap();
        std::fs::write(
            dir.join("report.json"),
            serde_json::to_string_pretty(&report).unwrap(),
        )
        .unwrap();
        (dir, report)
    })
}

/// Runs headless Chromium on `page` with `args`; its stdout and stderr.
fn chromium(page: &Path, args: &[&str]) -> (String, String) {
    let out = Command::new("chromium")
        .args(["--headless=new", "--no-sandbox", "--disable-gpu"])
        .args(["--host-resolver-rules=MAP * ~NOTFOUND"])
        .args(args)
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("Debian's chromium runs (apt-get install chromium; .ci/run installs it)");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The console messages Chromium logged for `page`.
fn console(page: &Path) -> Vec<String> {
    let (_, log) = chromium(page, &["--enable-logging=stderr", "--v=0", "--dump-dom"]);
    log.lines()
        .filter(|l| l.contains("CONSOLE"))
        .map(str::to_string)
        .collect()
}

/// Addresses a page would fetch: `src`, `href` and CSS `url(…)` that leave
/// the page.
fn fetched(dom: &str) -> Vec<String> {
    let mut out = Vec::new();
    for attr in ["src=\"", "href=\"", "url("] {
        for (i, _) in dom.match_indices(attr) {
            let rest = &dom[i + attr.len()..];
            let target: String = rest.chars().take_while(|c| !"\")".contains(*c)).collect();
            if !target.starts_with('#') && !target.starts_with("data:") {
                out.push(target);
            }
        }
    }
    out
}

#[test]
fn the_page_renders_without_console_errors_or_network_and_shows_every_section() {
    let (dir, report) = written();
    let page = dir.join("index.html");
    // The checks can fail: a page that logs an error, and one that fetches.
    let bad = dir.join("bad.html");
    std::fs::write(
        &bad,
        "<html><body><script>console.error('broken')</script><img src=\"http://example.invalid/x.png\"></body></html>",
    )
    .unwrap();
    assert!(!console(&bad).is_empty(), "the console check sees errors");
    let (bad_dom, _) = chromium(&bad, &["--dump-dom"]);
    assert!(
        !fetched(&bad_dom).is_empty(),
        "the network check sees fetches"
    );

    assert_eq!(console(&page), Vec::<String>::new());
    let (dom, _) = chromium(&page, &["--dump-dom"]);
    assert_eq!(fetched(&dom), Vec::<String>::new());
    assert!(!dom.contains("<script"), "no script at all");
    let mut answers = vec![
        ("The rules", &report.rules.answer),
        ("Speed and size", &report.speed.answer),
        ("Fairness by level", &report.fairness.answer),
        ("Game quality", &report.quality.answer),
    ];
    let ladder = report.ladder.as_ref().unwrap();
    let solved = report.solved.as_ref().unwrap();
    answers.push(("Depth: the skill ladder", &ladder.answer));
    answers.push(("Solved?", &solved.answer));
    answers.push((
        "A representative game",
        &report.game.as_ref().unwrap().answer,
    ));
    answers.push(("Tactics", &report.tactics.as_ref().unwrap().answer));
    answers.push(("Openings", &report.openings.as_ref().unwrap().answer));
    answers.push((
        "The course of play",
        &report.curves.as_ref().unwrap().answer,
    ));
    answers.push(("On the board", &report.board.as_ref().unwrap().answer));
    answers.push(("How games end", &report.endings.as_ref().unwrap().answer));
    let comparison = report.comparison.as_ref().unwrap();
    let title = format!("Comparison with {}", comparison.other_title);
    answers.push((title.as_str(), &comparison.answer));
    for (heading, answer) in answers {
        assert!(
            dom.contains(&format!("<h2>{}</h2>", escape(heading))),
            "{heading}"
        );
        assert!(dom.contains(&escape(answer)), "{heading}: {answer}");
    }
    assert!(solved.answer.starts_with("Solved: Romans win"));
    // Every score on the page comes with the depth searched: the game's
    // (the start to the last search), the openings' first moves and their
    // replies.
    let game = report.game.as_ref().unwrap();
    assert_eq!(game.depths.len(), game.scores.len());
    assert!(game.depths[..game.depths.len() - 1].iter().all(|&d| d >= 1));
    let openings = report.openings.as_ref().unwrap();
    assert!(openings.search_depth >= 1);
    assert!(
        (openings.moves.iter()).all(|m| m.replies.is_empty() == (m.replies_depth == 0)),
        "{openings:?}"
    );
    // The course of play's charts, the heat maps (coverage by anyone and by
    // each player, a map for each side that won, the first moves) and the
    // endings' bars are drawn.
    let board = report.board.as_ref().unwrap();
    let winners = board.wins.iter().filter(|&&w| w > 0).count();
    for (kind, count) in [
        ("curve-moves", 1),
        ("curve-material", 1),
        ("curve-score", 1),
        ("curve-going", 1),
        ("coverage", 3),
        ("won-at", winners),
        ("first-moves", 1),
        ("endings", 1),
    ] {
        let found = dom.matches(&format!("data-kind=\"{kind}\"")).count();
        assert_eq!(found, count, "{kind}");
    }
    // Every cell of every coverage map is shaded.
    let coverage: usize = dom
        .split("data-kind=\"coverage\">")
        .skip(1)
        .map(|f| {
            f[..f.find("</figure>").unwrap()]
                .matches("class=\"shade\"")
                .count()
        })
        .sum();
    assert_eq!(coverage, 3 * board.cells.len());
    // The ladder's count with its spread over the climbs, and each match's
    // test; the value solved says which game it is.
    let l = &ladder.ladder;
    let [lo, hi] = l.rung_range.expect("two climbs give a spread");
    assert!(lo <= l.rungs.len() && l.rungs.len() <= hi, "{l:?}");
    assert_eq!(l.climbs, 2);
    assert_eq!(l.other_climbs.len(), 1);
    let words = without_tags(&dom);
    let (spread, said) = if lo == hi {
        (
            format!(", {lo} in each of 2 climbs with their own seeds"),
            format!("({lo} in each of 2 climbs"),
        )
    } else {
        (
            format!(" [{lo}, {hi}] over 2 climbs with their own seeds"),
            format!(" [{lo}, {hi}] over 2 climbs"),
        )
    };
    assert!(
        words.contains(&spread),
        "the count's spread is on the page: {spread}"
    );
    assert!(ladder.answer.contains(&said), "{}", ladder.answer);
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    assert_eq!(
        at(&json, "ladder.ladder.rung_range"),
        Some(serde_json::json!([lo, hi]))
    );
    assert_eq!(
        at(&json, "ladder.ladder.other_climbs.length"),
        Some(serde_json::json!(1))
    );
    assert_eq!(at(&json, "solved.with_cap"), Some(serde_json::json!(false)));
    assert!(dom.contains("Another climb, with its own seed and games:"));
    // A warning where the first player wins over 90% of a match's games,
    // and only there.
    let decided = (l.steps.iter())
        .chain(l.other_climbs.iter().flat_map(|c| &c.steps))
        .any(|s| s.first_player > 0.9);
    assert_eq!(ladder.warning.is_some(), decided, "{:?}", ladder.warning);
    if let Some(w) = &ladder.warning {
        assert!(dom.contains(&format!("<p class=\"warning\">{}</p>", escape(w))));
    }
    assert!(dom.contains("a sequential test"));
    for s in &l.steps {
        let word = match s.decision.expect("a test's decision") {
            murus_lab::ladder::Decision::Rung => "<td>a rung</td>",
            murus_lab::ladder::Decision::NoGain => "<td>no gain</td>",
            murus_lab::ladder::Decision::Unclear => "<td>unclear</td>",
        };
        assert!(dom.contains(word), "{word}");
    }
    assert!(!solved.with_cap);
    assert!(dom.contains("The value is that of play without the ply cap"));
    // A screenshot, kept beside the page.
    let shot = dir.join("report.png");
    chromium(
        &page,
        &[
            "--window-size=1000,2400",
            &format!("--screenshot={}", shot.display()),
        ],
    );
    let png = std::fs::read(&shot).unwrap();
    assert!(
        png.starts_with(b"\x89PNG") && png.len() > 20_000,
        "{} bytes",
        png.len()
    );
}

/// How far past a phone's screen `page` reaches: Chromium shows it in a
/// frame `width` pixels wide (narrower than a headless window can be), and
/// a script in the page around the frame reads the document's width past
/// the frame's and the elements that stick out, but for those inside a
/// scrolling box (wide tables): `0;` when nothing does.
fn overflow(page: &Path, width: u32) -> String {
    let script = r#"<script>
const frame = document.getElementById('f');
frame.addEventListener('load', () => {
  const doc = frame.contentDocument;
  const d = doc.documentElement;
  const wide = [];
  for (const e of doc.querySelectorAll('body *')) {
    if (e.getBoundingClientRect().right > d.clientWidth + 1 && !e.closest('.scroll')) {
      wide.push(e.tagName + ' in ' + ((e.closest('section') || {}).id || 'the page'));
    }
  }
  document.body.setAttribute('data-overflow', d.scrollWidth - d.clientWidth + ';' + wide.slice(0, 12).join(', '));
});
</script>"#;
    let name = page.file_name().unwrap().to_str().unwrap();
    let around = page.with_file_name(format!("phone-{name}"));
    std::fs::write(
        &around,
        format!("<html><body><iframe id=\"f\" src=\"{name}\" style=\"width:{width}px;height:844px;border:0\"></iframe>{script}</body></html>"),
    )
    .unwrap();
    let (dom, _) = chromium(&around, &["--allow-file-access-from-files", "--dump-dom"]);
    let at = dom.find("data-overflow=\"").expect("the script ran") + "data-overflow=\"".len();
    dom[at..at + dom[at..].find('"').unwrap()].to_string()
}

#[test]
fn the_page_fits_a_phone_without_scrolling_sideways() {
    let (dir, _) = written();
    // The check sees a page wider than the phone.
    let bad = dir.join("wide.html");
    std::fs::write(
        &bad,
        "<html><body><section id=\"x\"><div style=\"width:1200px\">wide</div></section></body></html>",
    )
    .unwrap();
    assert_ne!(overflow(&bad, 390), "0;");
    assert_eq!(overflow(&dir.join("index.html"), 390), "0;");
}

/// The text of `html` without its tags.
fn without_tags(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out
}

/// Where the rules decide a game at its ply cap, the page says the value
/// shown is the game's with the cap, and gives the cap.
#[test]
fn a_value_with_the_ply_cap_says_so() {
    let (v, report) = crate::util::capped_report();
    let html = report_html(v, report);
    let words = without_tags(&html);
    assert!(
        words.contains(
            "The value is that of the game with its ply cap of 6 plies, as the rules define it"
        ),
        "{words}"
    );
    assert!(html.contains("data-key=\"solved.ply_cap\""));
    assert!(words.contains("--with-cap"));
}

/// HTML escaping as the page writes text (Chromium's DOM writes `'` and
/// `"` back unescaped in text).
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[test]
fn the_printed_page_has_a_bounded_number_of_pages() {
    let (dir, _) = written();
    let pdf = dir.join("report.pdf");
    chromium(
        &dir.join("index.html"),
        &[
            &format!("--print-to-pdf={}", pdf.display()),
            "--no-pdf-header-footer",
        ],
    );
    let bytes = std::fs::read(&pdf).unwrap();
    let text = String::from_utf8_lossy(&bytes);
    let pages = text.matches("/Type /Page").count() - text.matches("/Type /Pages").count();
    // Fourteen for this report (its curves, heat maps and endings take
    // three): a figure a move or a runaway table would go past the bound.
    assert!((2..=16).contains(&pages), "{pages} pages");
}

/// The value at `key` (dots between fields and array indices; `.length`
/// of an array) in `json`.
fn at(json: &serde_json::Value, key: &str) -> Option<serde_json::Value> {
    let mut v = json;
    let parts: Vec<&str> = key.split('.').collect();
    for (i, part) in parts.iter().enumerate() {
        if *part == "length" && i == parts.len() - 1 {
            return v.as_array().map(|a| serde_json::json!(a.len()));
        }
        v = match part.parse::<usize>() {
            Ok(n) => v.get(n)?,
            Err(_) => v.get(part)?,
        };
    }
    Some(v.clone())
}

#[test]
fn every_number_on_the_page_is_in_the_json() {
    let (dir, report) = written();
    let html = std::fs::read_to_string(dir.join("index.html")).unwrap();
    let json = serde_json::to_value(report).unwrap();
    let mut checked = 0;
    for (i, _) in html.match_indices("<span class=\"n\" data-key=\"") {
        let rest = &html[i + "<span class=\"n\" data-key=\"".len()..];
        let key = &rest[..rest.find('"').unwrap()];
        let scale = match rest[key.len()..].strip_prefix("\" data-scale=\"") {
            Some(s) => s[..s.find('"').unwrap()].parse::<f64>().unwrap(),
            None => 1.0,
        };
        let shown = &rest[rest.find('>').unwrap() + 1..rest.find("</span>").unwrap()];
        let value = at(&json, key).unwrap_or_else(|| panic!("{key} is not in report.json"));
        let value = value
            .as_f64()
            .unwrap_or_else(|| panic!("{key}: {value} is not a number"));
        let digits = shown.split('.').nth(1).map_or(0, str::len);
        let expected = if shown.starts_with('+') || shown.starts_with('-') {
            format!("{:+.digits$}", value * scale)
        } else {
            format!("{:.digits$}", value * scale)
        };
        assert_eq!(shown, expected, "{key}");
        checked += 1;
    }
    assert!(checked > 40, "{checked} numbers");
    // No other number on the page: outside the rules in words, the charts,
    // the answer lines (checked above against the JSON's) and code (the
    // commands and digests, in the JSON as they are), no digit is left but
    // in these labels.
    let mut text = html.clone();
    for (open, close) in [
        ("<style>", "</style>"),
        ("<svg", "</svg>"),
        ("<div class=\"words\">", "</div>"),
        ("<p class=\"answer\"", "</p>"),
        ("<span class=\"n\"", "</span>"),
        ("<code>", "</code>"),
        ("<ul class=\"verdict\">", "</ul>"),
        ("<ul class=\"flags\">", "</ul>"),
        // The game's result as a record writes it, checked below.
        ("<span class=\"result\">", "</span>"),
    ] {
        while let Some(a) = text.find(open) {
            let b = a + text[a..].find(close).unwrap() + close.len();
            text.replace_range(a..b, " ");
        }
    }
    // The tags go (their attributes are not shown), then the labels.
    let mut shown = String::new();
    let mut in_tag = false;
    for c in text.chars() {
        match c {
            '<' => in_tag = true,
            '>' => {
                in_tag = false;
                shown.push(' ');
            }
            c if !in_tag => shown.push(c),
            _ => {}
        }
    }
    shown = shown.replace("&#39;", "'").replace("&amp;", "&");
    for label in ["5%–95%", "95%", "log10", "SHA-256"] {
        shown = shown.replace(label, " ");
    }
    // What is left with a digit must be a name the JSON holds (a bot's).
    let mut strings = Vec::new();
    collect_strings(&json, &mut strings);
    let stray: Vec<&str> = shown
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| ",.;:()".contains(c)))
        .filter(|w| w.chars().any(|c| c.is_ascii_digit()))
        .filter(|w| !strings.iter().any(|s| s.contains(w)))
        .collect();
    assert_eq!(stray, Vec::<&str>::new());
    // The representative game's result, as its winner in the JSON says.
    let game = report.game.as_ref().unwrap();
    let result = match game.winner {
        Some('r') => "1-0",
        Some(_) => "0-1",
        None => "1/2-1/2",
    };
    assert!(
        html.contains(&format!("<span class=\"result\">{result}</span>")),
        "{result}"
    );
    for line in &report.fairness.balance.verdict {
        assert!(
            html.contains(&escape(line).replace('\'', "&#39;")),
            "{line}"
        );
    }
}

fn collect_strings(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(a) => a.iter().for_each(|x| collect_strings(x, out)),
        serde_json::Value::Object(o) => o.values().for_each(|x| collect_strings(x, out)),
        _ => {}
    }
}

/// The comparison shows a count (the ladder's rungs) as a whole number, not
/// as `4.00`: the page's cells of that row against the JSON's figures.
#[test]
fn the_comparison_shows_rungs_as_whole_numbers() {
    let (dir, report) = written();
    let html = std::fs::read_to_string(dir.join("index.html")).unwrap();
    let comparison = report.comparison.as_ref().unwrap();
    let (i, row) = (comparison.rows.iter().enumerate())
        .find(|(_, r)| r.figure == "rungs of the skill ladder")
        .expect("a row of rungs");
    assert!(row.count, "the rungs are a count");
    for (side, value) in [("this", row.this), ("other", row.other)] {
        let value = value.expect("both reports have a ladder");
        let key = format!("<span class=\"n\" data-key=\"comparison.rows.{i}.{side}\">");
        let at = html.find(&key).unwrap_or_else(|| panic!("{key}")) + key.len();
        let shown = &html[at..at + html[at..].find("</span>").unwrap()];
        assert_eq!(shown, format!("{value}"), "{side}");
        assert!(!shown.contains('.'), "{side}: {shown}");
    }
}
