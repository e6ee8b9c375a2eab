//! The playtest summary's page for the designer (`GET /rules/{key}/summary`):
//! what people's games of a rules version say, and every player's comment,
//! drawn by the server from [`crate::summary::summary`] with every text
//! escaped. Behind `--password` like the designer's page.

use std::fmt::Write as _;
use std::sync::Arc;

use axum::Router;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::get;
use murus_publish::html::escape;

use super::player::{PAGE_POLICY, html, message_page};
use crate::Shared;
use crate::summary::{Summary, summary};

/// The summary page's route.
pub fn routes() -> Router<Arc<Shared>> {
    Router::new().route("/rules/{key}/summary", get(page))
}

async fn page(State(s): State<Arc<Shared>>, key: Result<Path<String>, PathRejection>) -> Response {
    let Ok(Path(key)) = key else {
        return message_page(
            StatusCode::NOT_FOUND,
            "No such rules",
            "no such rules version",
        );
    };
    match summary(&s.store, &s.variants, &key) {
        Ok(sum) => html(StatusCode::OK, render(&sum), PAGE_POLICY),
        Err(e) => message_page(StatusCode::NOT_FOUND, "No such rules", &e.to_string()),
    }
}

/// A share as a percentage with one decimal.
fn percent(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

/// The page of `sum`.
pub fn render(sum: &Summary) -> String {
    let mut b = String::new();
    let name = escape(&sum.variant);
    let _ = write!(
        b,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>Playtest summary: {name}</title>\n\
         <link rel=\"stylesheet\" href=\"/assets/play.css\">\n<link rel=\"icon\" href=\"data:,\">\n</head>\n<body>\n\
         <main class=\"summary\">\n<h1>Playtest summary: {name}</h1>\n\
         <p class=\"sub\">Rules <code>{key}</code> · <a href=\"/rules/{key}/sheet\">Rules sheet</a> · \
         <a href=\"/api/rules/{key}/games.mgn\" download>Every game (.mgn)</a></p>\n",
        key = escape(&sum.rules_key),
    );
    let _ = write!(
        b,
        "<h2>Games</h2>\n<table>\n<tr><th>Games made</th><td data-key=\"games\">{}</td></tr>\n\
         <tr><th>Finished</th><td data-key=\"finished\">{}</td></tr>\n\
         <tr><th>Drawn</th><td data-key=\"draws\">{}</td></tr>\n",
        sum.games, sum.finished, sum.draws
    );
    match &sum.first_player {
        Some(r) => {
            let _ = writeln!(
                b,
                "<tr><th>First player won</th><td data-key=\"first_player\">{} of {} decided: {} \
                 (95% interval {} to {})</td></tr>",
                r.wins,
                r.decided,
                percent(r.rate),
                percent(r.low),
                percent(r.high)
            );
        }
        None => b.push_str(
            "<tr><th>First player won</th><td data-key=\"first_player\">no game decided yet</td></tr>\n",
        ),
    }
    if !sum.lengths.is_empty() {
        let lengths: Vec<String> = sum.lengths.iter().map(ToString::to_string).collect();
        let _ = writeln!(
            b,
            "<tr><th>Lengths (plies)</th><td data-key=\"lengths\">{}</td></tr>",
            lengths.join(", ")
        );
    }
    b.push_str("</table>\n");
    bots_section(&mut b, sum);
    if !sum.endings.is_empty() {
        b.push_str("<h2>How they ended</h2>\n<ul data-key=\"endings\">\n");
        for (how, n) in &sum.endings {
            let _ = writeln!(b, "<li>{}: {n}</li>", escape(how));
        }
        b.push_str("</ul>\n");
    }
    let f = &sum.feedback;
    let mean = |m: Option<f64>| m.map_or("–".to_string(), |x| format!("{x:.2}"));
    let _ = write!(
        b,
        "<h2>What the players said</h2>\n<table>\n\
         <tr><th>Answers</th><td data-key=\"answers\">{}</td></tr>\n\
         <tr><th>Fun (1 to 5)</th><td data-key=\"fun\">{}</td></tr>\n\
         <tr><th>Clarity of the rules (1 to 5)</th><td data-key=\"clarity\">{}</td></tr>\n\
         <tr><th>Would play again</th><td data-key=\"again\">{} of {}</td></tr>\n</table>\n",
        f.answers,
        mean(f.fun),
        mean(f.clarity),
        f.again,
        f.answers
    );
    if !f.comments.is_empty() {
        b.push_str("<h3>Comments</h3>\n<ul class=\"comments\" data-key=\"comments\">\n");
        for c in &f.comments {
            let _ = writeln!(b, "<li>{}</li>", escape(c));
        }
        b.push_str("</ul>\n");
    }
    b.push_str("</main>\n</body>\n</html>\n");
    b
}

/// People's figures beside the bots' (their balance check of the same
/// rules), and whether they agree on the first player's rate; or the
/// check's state while it runs, or why it failed.
fn bots_section(b: &mut String, sum: &Summary) {
    bots_button(b, sum);
    let Some(check) = &sum.bots else {
        b.push_str(
            "<p class=\"sub\" data-key=\"bots\">No bots' balance check of these rules yet.</p>\n",
        );
        return;
    };
    let Some(f) = &check.figures else {
        let state = match (&check.error, check.state.as_str()) {
            (Some(e), _) => format!("The bots' balance check failed: {e}"),
            (None, "running") => {
                format!("The bots' balance check is running ({}).", check.settings)
            }
            (None, other) => format!("The bots' balance check: {other}."),
        };
        let _ = writeln!(
            b,
            "<p class=\"sub\" data-key=\"bots\">{}</p>",
            escape(&state)
        );
        return;
    };
    let rate = |r: Option<(u64, u64, f64, f64, f64)>| match r {
        Some((wins, decided, rate, low, high)) => format!(
            "{wins} of {decided} decided: {} ({} to {})",
            percent(rate),
            percent(low),
            percent(high)
        ),
        None => "no game decided".to_string(),
    };
    let people_rate = rate(
        sum.first_player
            .as_ref()
            .map(|r| (r.wins, r.decided, r.rate, r.low, r.high)),
    );
    let bots_rate = rate(
        f.first_player
            .as_ref()
            .map(|r| (r.wins, r.decided, r.rate, r.low, r.high)),
    );
    let people_lengths = if sum.lengths.is_empty() {
        "–".to_string()
    } else {
        let n = sum.lengths.len();
        let mean = sum.lengths.iter().sum::<usize>() as f64 / n as f64;
        format!("mean {mean:.1}, median {}", sum.lengths[n / 2])
    };
    let bots_lengths = format!(
        "mean {:.1}, median {} (5% to 95%: {} to {})",
        f.lengths.mean, f.lengths.median, f.lengths.p5, f.lengths.p95
    );
    let endings = |e: &std::collections::BTreeMap<String, u64>| {
        if e.is_empty() {
            return "–".to_string();
        }
        e.iter()
            .map(|(how, n)| format!("{how}: {n}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let _ = write!(
        b,
        "<h2>People and bots</h2>\n<table class=\"versus\" data-key=\"versus\">\n\
         <tr><th></th><th>People</th><th>Bots ({level})</th></tr>\n\
         <tr><th>Games finished</th><td data-key=\"people_games\">{pg}</td><td data-key=\"bots_games\">{bg}</td></tr>\n\
         <tr><th>First player won (95% interval)</th><td data-key=\"people_first\">{pr}</td><td data-key=\"bots_first\">{br}</td></tr>\n\
         <tr><th>Drawn</th><td>{pd}</td><td>{bd}</td></tr>\n\
         <tr><th>Lengths (plies)</th><td>{pl}</td><td>{bl}</td></tr>\n\
         <tr><th>How they ended</th><td>{pe}</td><td data-key=\"bots_endings\">{be}</td></tr>\n</table>\n\
         <p class=\"sub\">Bots: {settings}.</p>\n",
        level = escape(&f.level),
        pg = sum.finished,
        bg = f.games,
        pr = escape(&people_rate),
        br = escape(&bots_rate),
        pd = sum.draws,
        bd = f.draws,
        pl = escape(&people_lengths),
        bl = escape(&bots_lengths),
        pe = escape(&endings(&sum.endings)),
        be = escape(&endings(&f.endings)),
        settings = escape(&check.settings),
    );
    if let Some(a) = &sum.agreement {
        let _ = writeln!(
            b,
            "<p class=\"verdict\" data-key=\"agreement\">{}</p>",
            escape(a)
        );
    }
}

/// The button that asks the server for the bots' check (`assets/bots.js`),
/// and where it says how it goes.
fn bots_button(b: &mut String, sum: &Summary) {
    let running = sum.bots.as_ref().is_some_and(|c| c.state == "running");
    let label = if sum.bots.is_some() {
        "Run the bots' balance check again"
    } else {
        "Run the bots' balance check"
    };
    let _ = writeln!(
        b,
        "<p><button type=\"button\" id=\"run-bots\" data-key=\"{}\" data-running=\"{running}\" disabled>{}</button> \
         <span id=\"bots-status\" role=\"status\"></span></p>\n\
         <script src=\"/assets/bots.js\" defer></script>",
        escape(&sum.rules_key),
        escape(label)
    );
}
